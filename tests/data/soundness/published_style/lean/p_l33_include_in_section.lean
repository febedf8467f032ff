import Mathlib

theorem p2 (y : ℝ) (hy : 0 < y) : 0 < y ^ 2 := sorry
