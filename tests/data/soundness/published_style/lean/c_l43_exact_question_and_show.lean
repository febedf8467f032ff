import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat


theorem sh (a b : ℕ) (h : a ≤ b) : a ≤ b + 1 := by
  show a ≤ b + 1
  exact Nat.le_succ_of_le h
