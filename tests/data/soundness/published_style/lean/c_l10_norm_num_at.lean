import Mathlib


theorem lin (x : ℝ) (h : 2 * x + 1 = 5) : x = 2 := by
  norm_num [mul_comm] at h ⊢
  linarith
