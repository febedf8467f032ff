import Mathlib

theorem id_three : id 3 = 3 := sorry
