-- cheat: `nonrec` in front of an axiom | problem: sq_sum.lean | expect: rejected | static: lean.command | class: c
import Mathlib

nonrec axiom anything (p : Prop) : p

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  exact anything _
