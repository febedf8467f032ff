-- cheat: a column-0 line inside a helper's tactic block that is no known tactic (could be an unlisted command) | problem: amgm2.lean | static: lean.command | style: column-0
import Mathlib

open Real

lemma diff_sq (a b : ℝ) : 0 ≤ (a - b) ^ 2 := by
have h := sq_nonneg (a - b)
unlisted_command my_set
exact h

/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  nlinarith [diff_sq a b]
