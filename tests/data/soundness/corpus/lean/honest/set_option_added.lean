-- honest | problem: amgm2.lean | style: set-option-in | a heartbeat limit added to the theorem, a linter switched off for the helpers
import Mathlib

open Real

set_option linter.unusedVariables false

lemma mean_sq (a b : ℝ) (unused : 0 ≤ 1) : ((a + b) / 2) ^ 2 - a * b = ((a - b) / 2) ^ 2 := by
  ring

set_option maxHeartbeats 800000 in
/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  nlinarith [mean_sq a b zero_le_one, sq_nonneg ((a - b) / 2)]
