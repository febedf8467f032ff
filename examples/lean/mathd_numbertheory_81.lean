import Mathlib

set_option maxHeartbeats 0

open BigOperators Real Nat Topology Rat

/-- Determine the remainder of 71 (mod 3). Show that it is 2.-/
theorem mathd_numbertheory_81 : 71 % 3 = 2 := by
  sorry
