-- cheat: `set_option ... in` that switches off the kernel check of a helper | problem: amgm2.lean | static: lean.set_option | style: set-option-in
import Mathlib

open Real

set_option debug.skipKernelTC true in
lemma bogus (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  nlinarith [sq_nonneg (a - b)]

/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := bogus a b
