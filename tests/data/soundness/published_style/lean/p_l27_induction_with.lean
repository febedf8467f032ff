import Mathlib

theorem sum_id (n : ℕ) : 2 * (Finset.range (n + 1)).sum id = n * (n + 1) := sorry
