module

public import Mathlib

theorem pos_succ (n : ℕ) : 0 < n + 1 := sorry
