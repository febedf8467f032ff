-- honest | problem: sq_nonneg2.lean | a @[simp] private helper and a calc block
import Mathlib

set_option maxHeartbeats 400000

open Real

@[simp] private theorem two_sq_nonneg (a b : ℝ) : 0 ≤ a ^ 2 + b ^ 2 :=
  add_nonneg (sq_nonneg a) (sq_nonneg b)

theorem sq_nonneg2 (x y : ℝ) : 0 ≤ x ^ 2 + y ^ 2 := by
  calc (0 : ℝ) ≤ x ^ 2 + y ^ 2 := two_sq_nonneg x y
    _ = x ^ 2 + y ^ 2 := rfl
