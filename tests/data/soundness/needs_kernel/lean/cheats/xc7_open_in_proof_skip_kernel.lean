-- cheat: `open ... in` inside the proof beside `set_option debug.skipKernelTC` | problem: sq_sum.lean | expect: rejected | static: lean.set_option | class: c
import Mathlib

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  open Nat in
  set_option debug.skipKernelTC true in
  ring
