-- honest: a helper over `Lean.Expr` (metaprogramming data) that the proof never needs | problem: sq_sum.lean | expect: needs_kernel | class: c
import Mathlib

/-- Number of applications in an expression. -/
def appCount : Lean.Expr → ℕ
  | .app fn arg => appCount fn + appCount arg + 1
  | _ => 0

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  ring
