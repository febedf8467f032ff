import Mathlib

/-- The main result. -/
theorem div_two (n : ℕ) (h : n % 2 = 0) : 2 ∣ n := sorry
