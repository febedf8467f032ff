module

public import Mathlib

@[expose] public section

theorem add_comm' (a b : ℕ) : a + b = b + a := sorry
