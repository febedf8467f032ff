import Mathlib

theorem sq_eq (x : ℤ) : x ^ 2 = x * x := sorry
