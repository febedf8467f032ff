import Mathlib

theorem fib_two : (2 : ℕ) = 1 + 1 := sorry
