import Mathlib

open Real

/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  sorry
