-- cheat: an indented `#print` then an indented `#eval` inside the proof body | problem: sq_sum.lean | expect: rejected | static: lean.command | class: b
import Mathlib

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  ring
  #print axioms add_sq
  #eval (pure () : IO Unit)
