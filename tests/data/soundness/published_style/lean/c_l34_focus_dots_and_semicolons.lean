import Mathlib


theorem and_ex (p q : Prop) (hp : p) (hq : q) : p ∧ q ∧ p := by
  refine ⟨?_, ?_, ?_⟩
  · exact hp
  · exact hq
  all_goals exact hp
