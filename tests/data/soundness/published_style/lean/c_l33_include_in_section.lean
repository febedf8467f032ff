import Mathlib

section
variable {x : ℝ} (hx : 0 < x)
include hx

lemma pos_sq : 0 < x ^ 2 := by positivity

omit hx in
lemma sq_nonneg'' : 0 ≤ x ^ 2 := sq_nonneg x
end

theorem p2 (y : ℝ) (hy : 0 < y) : 0 < y ^ 2 := pos_sq hy
