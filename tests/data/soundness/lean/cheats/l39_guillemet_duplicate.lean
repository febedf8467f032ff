-- cheat: the theorem declared a second time as «nat_add» | problem: nat_add.lean | static: candidate.duplicate
import Mathlib

open Nat

theorem «nat_add» (n m : ℕ) : n + m = m + n := Nat.add_comm n m

/-- Commutativity of addition. -/
theorem nat_add (n m : ℕ) : n + m = m + n := by
  omega
