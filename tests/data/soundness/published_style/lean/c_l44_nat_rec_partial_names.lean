import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat


theorem pr (l : List ℕ) (h : [1] <+: l) : l ≠ [] := by
  rintro rfl
  simp at h
