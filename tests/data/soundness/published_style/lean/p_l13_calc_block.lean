import Mathlib

theorem calc_ex (a b : ℕ) (h : a = b) : a + a = 2 * b := sorry
