import Mathlib

def f (n : ℕ) : ℕ := n * n + 1

def g (n : ℕ) : ℕ := f n + f (n + 1)

theorem g_two : g 2 = 15 := by
  sorry
