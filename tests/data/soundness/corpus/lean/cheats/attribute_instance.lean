-- cheat: `@[simp, instance]` smuggles an instance in beside a trust-neutral attribute | problem: amgm2.lean | static: lean.attribute | style: attributes
import Mathlib

open Real

@[simp, instance] def weird : Inhabited ℝ := ⟨1⟩

/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  nlinarith [sq_nonneg (a - b)]
