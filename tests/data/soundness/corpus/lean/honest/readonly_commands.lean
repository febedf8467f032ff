-- honest | problem: amgm2.lean | style: readonly | `#check` and `#print axioms` among the helpers and after the proof
import Mathlib

open Real

lemma sq_mean (a b : ℝ) : 0 ≤ (a - b) ^ 2 := sq_nonneg _

#check sq_mean
#print axioms sq_mean

/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  nlinarith [sq_mean a b]

#print axioms amgm2
#check amgm2
