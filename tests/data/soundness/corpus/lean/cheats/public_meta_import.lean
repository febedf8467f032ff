-- cheat: the public modifier (allowed at column 0) on a meta definition and an import among the helpers | problem: module_pub.lean | style: module | static: lean.command
module

public import Mathlib

@[expose] public section

public import Mathlib.Tactic.Ring

public meta def trustMe : ℕ := 0

/-- Doubling as addition. -/
theorem two_mul_eq (n : ℕ) : 2 * n = n + n := by
  omega
