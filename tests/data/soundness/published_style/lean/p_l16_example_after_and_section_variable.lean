import Mathlib

theorem sub_nonpos' (x y : ℝ) (h : x ≤ y) : x - y ≤ 0 := sorry
