import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat


theorem zoo (p : ℕ) (hp : p.Prime) (h : 2 < p) : Odd p ∧ (3 : ℕ) ∣ 9 := by
  haveI := Fact.mk hp
  letI := Classical.decEq ℕ
  refine ⟨?_, by decide⟩
  rcases hp.eq_one_or_self_of_dvd 2 (by omega) with h2 | h2
  · omega
  · exact hp.odd_of_ne_two (by omega)
