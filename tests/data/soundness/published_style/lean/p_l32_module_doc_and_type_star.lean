import Mathlib

theorem c4 : Fintype.card (Fin 4) = 4 := sorry
