-- honest | problem: sq_nonneg2.lean | nlinarith under a local heartbeat option
import Mathlib

set_option maxHeartbeats 400000

open Real

theorem sq_nonneg2 (x y : ℝ) : 0 ≤ x ^ 2 + y ^ 2 := by
  set_option maxHeartbeats 800000 in
  nlinarith [sq_nonneg x, sq_nonneg y]
