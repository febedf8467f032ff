import Mathlib

namespace Contest

theorem add_zero_eq (n : ℕ) : n + 0 = n := by
  sorry
