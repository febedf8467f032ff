import Mathlib

/-- A helper: squares are nonnegative. -/
private lemma sq_nonneg' (x : ℝ) : 0 ≤ x ^ 2 := sq_nonneg x

theorem sum_sq_nonneg (x y : ℝ) : 0 ≤ x ^ 2 + y ^ 2 := by
  have := sq_nonneg' x
  have := sq_nonneg' y
  linarith
