-- honest | problem: sum_odd.lean | style: set-option-in | helpers before the problem's own `set_option ... in` on the theorem, one on a helper too
import Mathlib

open Finset

set_option maxRecDepth 2000 in
lemma odd_step (n : ℕ) : ∑ i ∈ range (n + 1), (2 * i + 1) = ∑ i ∈ range n, (2 * i + 1) + (2 * n + 1) :=
  sum_range_succ _ _

set_option maxHeartbeats 400000 in
/-- The sum of the first `n` odd numbers is `n ^ 2`. -/
theorem sum_odd (n : ℕ) : ∑ i ∈ range n, (2 * i + 1) = n ^ 2 := by
  induction n with
  | zero => simp
  | succ k ih => rw [odd_step, ih]; ring
