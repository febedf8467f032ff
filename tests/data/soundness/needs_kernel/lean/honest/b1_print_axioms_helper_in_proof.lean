-- honest: an indented `#print axioms` of a library lemma at the end of the proof | problem: sq_sum.lean | expect: needs_kernel | class: b
import Mathlib

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  ring
  #print axioms add_sq
