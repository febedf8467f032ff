-- cheat: a helper public section used to hide an axiom | problem: module_pub.lean | style: module | static: lean.command
module

public import Mathlib

@[expose] public section

@[expose] public section
axiom dbl_ax (n : ℕ) : 2 * n = n + n
end

/-- Doubling as addition. -/
theorem two_mul_eq (n : ℕ) : 2 * n = n + n := by
  exact dbl_ax n
