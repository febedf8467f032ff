-- honest: compfiles-style tactic written with `open Lean Elab Tactic in` + `elab` | problem: sq_sum.lean | expect: needs_kernel | class: c
import Mathlib

open Lean Elab Tactic in
/-- Close a commutative-semiring identity. -/
elab "ring_it" : tactic => do
  evalTactic (← `(tactic| ring))

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  ring_it
