import Mathlib

open Nat

/-- Commutativity of addition. -/
theorem nat_add (n m : ℕ) : n + m = m + n := by
  sorry
