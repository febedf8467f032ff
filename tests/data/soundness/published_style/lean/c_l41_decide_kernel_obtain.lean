import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat


theorem dk (h : ∃ k : ℕ, k * 2 = 10) : (10 : ℕ) % 2 = 0 ∧ True := by
  obtain ⟨k, hk⟩ := h
  exact ⟨by decide +kernel, trivial⟩
