-- cheat: `attribute [local instance]` at the top level of the helpers reaches the theorem's elaboration | problem: amgm2.lean | static: lean.attribute | style: attributes
import Mathlib

open Real

attribute [local instance] Classical.propDecidable

/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  nlinarith [sq_nonneg (a - b)]
