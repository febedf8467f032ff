import Mathlib

theorem first_claim (n : ℕ) : n + 0 = n := by
  sorry

theorem second_claim (n : ℕ) : 0 + n = n := by
  sorry
