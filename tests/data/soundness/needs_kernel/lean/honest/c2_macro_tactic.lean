-- honest: a `macro` helper tactic | problem: sq_sum.lean | expect: needs_kernel | class: c
import Mathlib

/-- Normalise both sides. -/
macro "expand_both" : tactic => `(tactic| ring_nf)

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  expand_both
