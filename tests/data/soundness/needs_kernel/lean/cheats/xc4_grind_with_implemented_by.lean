-- cheat: a grind attribute list that also carries implemented_by | problem: sq_sum.lean | expect: rejected | static: lean.native,lean.attribute | class: c
import Mathlib

def slow (n : ℕ) : ℕ := n

@[grind =, implemented_by slow] def fast (n : ℕ) : ℕ := n + 1

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  ring
