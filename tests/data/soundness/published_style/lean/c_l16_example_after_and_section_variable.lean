import Mathlib

section
variable (a b : ℝ)
theorem my_helper (h : a ≤ b) : a - b ≤ 0 := by linarith
end

theorem sub_nonpos' (x y : ℝ) (h : x ≤ y) : x - y ≤ 0 := my_helper x y h
