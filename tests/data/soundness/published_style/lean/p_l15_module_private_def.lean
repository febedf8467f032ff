module

public import Mathlib

@[expose] public section

theorem sq_two : (2 : ℕ) ^ 2 = 4 := sorry
