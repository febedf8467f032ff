import Mathlib

theorem ex3 (a : ℕ) : a * 1 = a := sorry
