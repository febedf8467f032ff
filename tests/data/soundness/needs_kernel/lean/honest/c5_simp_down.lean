-- honest: a `@[simp↓]` helper (a simp lemma used before visiting subterms) | problem: sq_sum.lean | expect: static | class: c
import Mathlib

@[simp↓] theorem expand_sq (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  ring

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  simp
