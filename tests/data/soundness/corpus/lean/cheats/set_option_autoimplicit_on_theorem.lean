-- cheat: a `set_option ... in` added to the theorem that changes how its statement elaborates | problem: amgm2.lean | static: lean.set_option | style: set-option-in
import Mathlib

open Real

set_option autoImplicit true in
/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  nlinarith [sq_nonneg (a - b)]
