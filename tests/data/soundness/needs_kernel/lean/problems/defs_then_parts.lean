import Mathlib

def g (n : ℕ) : ℕ := n * n + 1

theorem part_a : g 2 = 5 := by
  sorry

theorem part_b (n : ℕ) : 1 ≤ g n := by
  sorry
