import Mathlib

theorem lin (x : ℝ) (h : 2 * x + 1 = 5) : x = 2 := sorry
