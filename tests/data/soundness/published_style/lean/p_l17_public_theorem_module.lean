module

public import Mathlib

public theorem mul_self_nonneg' (x : ℤ) : 0 ≤ x * x := sorry
