-- cheat: an elaborator helper next to an unsafe definition | problem: sq_sum.lean | expect: rejected | static: lean.command,lean.meta | class: c
import Mathlib

unsafe def loop (n : ℕ) : False := loop n

open Lean Elab Tactic in
elab "close_it" : tactic => do
  evalTactic (← `(tactic| exact (loop 0).elim))

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  close_it
