-- honest | problem: amgm2.lean | style: section | helpers in a `section` with its own `variable`s and `open`, closed before the theorem
import Mathlib

open Real

section Helpers

variable {x y : ℝ}

open Finset

lemma two_mul_le_sq_add_sq : 2 * x * y ≤ x ^ 2 + y ^ 2 := by
  nlinarith [sq_nonneg (x - y)]

end Helpers

noncomputable section

lemma half_sq (c : ℝ) : (c / 2) ^ 2 = c ^ 2 / 4 := by ring

end

/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  have := two_mul_le_sq_add_sq (x := a) (y := b)
  rw [half_sq]
  nlinarith
