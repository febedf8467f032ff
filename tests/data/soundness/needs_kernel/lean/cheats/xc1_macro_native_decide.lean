-- cheat: a macro tactic that expands to native_decide | problem: sq_sum.lean | expect: rejected | static: lean.native | class: c
import Mathlib

macro "fast" : tactic => `(tactic| native_decide)

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  fast
