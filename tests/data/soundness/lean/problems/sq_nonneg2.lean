import Mathlib

set_option maxHeartbeats 400000

open Real

theorem sq_nonneg2 (x y : ℝ) : 0 ≤ x ^ 2 + y ^ 2 := by
  sorry
