import Mathlib

@[simp] lemma double_eq (n : ℕ) : n + n = 2 * n := by omega

theorem dbl (n m : ℕ) (h : n + n = m) : m = 2 * n := by
  simp only [double_eq] at h ⊢
  omega
