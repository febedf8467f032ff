import Mathlib

theorem add_zero_twice (n : ℕ) : n + 0 + 0 = n := sorry
