-- honest | problem: nat_add.lean | a term proof, docstring removed, a comment that says sorry
import Mathlib

open Nat

theorem nat_add (n m : ℕ) : n + m = m + n :=
  Nat.add_comm n m -- no sorry here
