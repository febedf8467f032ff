import Mathlib

/-!
# Auxiliary lemmas

Some helper facts.
-/

lemma card_le {α : Type*} [Fintype α] (s : Finset α) : s.card ≤ Fintype.card α :=
  Finset.card_le_univ s

theorem c4 : Fintype.card (Fin 4) = 4 := by simp
