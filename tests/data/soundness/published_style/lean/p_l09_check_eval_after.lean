import Mathlib

theorem four : 2 + 2 = 4 := sorry
