-- cheat: a `#check` inside the proof, then the proof left open | problem: sq_sum.lean | expect: rejected | static: lean.hole | class: b
import Mathlib

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  #check add_sq
  sorry
