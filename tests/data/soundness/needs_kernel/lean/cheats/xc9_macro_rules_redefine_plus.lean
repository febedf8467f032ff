-- cheat: macro_rules rewrite `+` in the target statement: only Lean's statement check can see it, so it needs Lean and is never accepted here | problem: sq_sum.lean | expect: needs_kernel | class: c
import Mathlib

macro_rules | `($a + $b) => `($a * $b)

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  ring
