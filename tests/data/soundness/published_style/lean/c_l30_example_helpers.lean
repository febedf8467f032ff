import Mathlib

example : (2 : ℕ) + 2 = 4 := rfl

example (a b : ℕ) : a + b = b + a := by
  exact Nat.add_comm a b

theorem ex3 (a : ℕ) : a * 1 = a := mul_one a
