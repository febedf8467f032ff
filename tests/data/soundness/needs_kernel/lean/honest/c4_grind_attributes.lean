-- honest: helpers tagged `@[grind =]` and `@[grind! .]` for the grind tactic | problem: sq_sum.lean | expect: static | class: c
import Mathlib

@[grind =] theorem expand_sq (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  ring

@[grind! .] theorem two_mul_eq (a : ℕ) : 2 * a = a + a := by
  ring

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  grind
