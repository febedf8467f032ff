import Mathlib

theorem sum_sq_nonneg (x y : ℝ) : 0 ≤ x ^ 2 + y ^ 2 := sorry
