-- honest | problem: sum_odd.lean | style: include | Mathlib-style helper section with variable, include and omit ... in
import Mathlib

open Finset

section OddSums

variable {m : ℕ} (hm : 0 < m)
include hm

lemma pred_succ_eq : m - 1 + 1 = m := by omega

omit hm in
lemma odd_step (k : ℕ) : (k + 1) ^ 2 = k ^ 2 + (2 * k + 1) := by ring

end OddSums

set_option maxHeartbeats 400000 in
/-- The sum of the first `n` odd numbers is `n ^ 2`. -/
theorem sum_odd (n : ℕ) : ∑ i ∈ range n, (2 * i + 1) = n ^ 2 := by
  induction n with
  | zero => simp
  | succ k ih => rw [sum_range_succ, ih, odd_step]
