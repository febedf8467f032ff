import Mathlib

open Real

open Finset in
lemma sum_range_id' (n : ℕ) : ∑ i ∈ range (n + 1), i = n * (n + 1) / 2 := by
  rw [Finset.sum_range_id_mul_two] <;> omega

theorem pi_pos' : 0 < π := pi_pos
