module

public import Mathlib

@[expose] public section

namespace Foo

theorem bar (n : ℕ) : n ≤ n + 1 := sorry
