module

public import Mathlib

public noncomputable section

theorem r2 (x : ℝ) : x + 0 = x := sorry
