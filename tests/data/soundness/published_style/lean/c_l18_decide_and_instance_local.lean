import Mathlib

section
attribute [local simp] Nat.succ_le_iff
lemma sle (n : ℕ) : 0 < n + 1 := by simp
end

theorem small : (7 : ℕ) ∣ 21 := by
  decide
