-- cheat: `@[simp↓, csimp]`: a compiler replacement hidden beside a simp attribute | problem: sq_sum.lean | expect: rejected | static: lean.native,lean.attribute | class: c
import Mathlib

def f (n : ℕ) : ℕ := n
def f' (n : ℕ) : ℕ := n

@[simp↓, csimp] theorem f_eq : @f = @f' := rfl

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  ring
