import Mathlib

theorem small : (7 : ℕ) ∣ 21 := sorry
