-- honest: `open ... in` inside the proof | problem: sq_sum.lean | expect: needs_kernel | class: c
import Mathlib

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  open Nat in
  ring
