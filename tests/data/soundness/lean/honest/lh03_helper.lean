-- honest | problem: nat_add.lean | a helper lemma before the theorem
import Mathlib

open Nat

theorem my_comm_helper (a b : ℕ) : a + b = b + a := by
  omega

/-- Commutativity of addition. -/
theorem nat_add (n m : ℕ) : n + m = m + n := by
  exact my_comm_helper n m
