import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat

theorem tm (h : ∃ x : ℕ, x > 3) : ∃ y : ℕ, y > 2 := by
  sorry
