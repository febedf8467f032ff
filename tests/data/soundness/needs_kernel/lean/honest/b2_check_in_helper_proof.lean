-- honest: an indented `#check` left at the end of a helper's proof | problem: sq_sum.lean | expect: needs_kernel | class: b
import Mathlib

lemma expand_sq (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  ring
  #check expand_sq

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  exact expand_sq a b
