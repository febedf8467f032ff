import Mathlib

theorem dbl (n m : ℕ) (h : n + n = m) : m = 2 * n := sorry
