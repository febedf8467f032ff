import Mathlib


theorem amgm (x y : ℝ) (hx : 0 < x) (hy : 0 < y) : 2 * x * y ≤ x ^ 2 + y ^ 2 := by
  nlinarith [sq_nonneg (x - y), sq_nonneg (x + y), mul_pos hx hy]
