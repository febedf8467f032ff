module

public import Mathlib

@[expose] public section

/-- Doubling as addition. -/
theorem two_mul_eq (n : ℕ) : 2 * n = n + n := by
  sorry
