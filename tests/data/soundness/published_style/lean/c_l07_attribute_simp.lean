import Mathlib

lemma my_add_zero (n : ℕ) : n + 0 = n := rfl

attribute [simp] my_add_zero

theorem add_zero_twice (n : ℕ) : n + 0 + 0 = n := by
  simp
