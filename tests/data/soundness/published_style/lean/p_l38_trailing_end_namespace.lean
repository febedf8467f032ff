import Mathlib

namespace Contest

theorem t1 (n : ℕ) : n + 0 = n := sorry
