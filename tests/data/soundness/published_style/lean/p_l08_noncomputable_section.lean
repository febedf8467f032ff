import Mathlib

theorem halves (x : ℝ) : x / 2 + x / 2 = x := sorry
