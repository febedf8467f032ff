import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat

theorem zoo (p : ℕ) (hp : p.Prime) (h : 2 < p) : Odd p ∧ (3 : ℕ) ∣ 9 := by
  sorry
