import Mathlib

theorem two_eq : (2 : ℝ) = 1 + 1 := sorry
