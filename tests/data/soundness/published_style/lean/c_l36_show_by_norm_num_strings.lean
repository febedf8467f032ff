import Mathlib


theorem two_eq : (2 : ℝ) = 1 + 1 := by
  simp [show (2 : ℝ) = 1 + 1 by norm_num]
