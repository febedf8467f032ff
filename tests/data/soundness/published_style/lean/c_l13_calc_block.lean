import Mathlib


theorem calc_ex (a b : ℕ) (h : a = b) : a + a = 2 * b := by
  calc a + a = b + b := by rw [h]
    _ = 2 * b := by ring
