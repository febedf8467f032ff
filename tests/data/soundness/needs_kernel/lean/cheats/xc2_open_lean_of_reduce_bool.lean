-- cheat: `open Lean in` hides the namespace of ofReduceBool | problem: sq_sum.lean | expect: rejected | static: lean.native | class: c
import Mathlib

open Lean in
theorem by_compiler (b : Bool) (h : reduceBool b = true) : b = true := ofReduceBool b true h

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  ring
