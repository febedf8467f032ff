-- honest | problem: amgm2.lean | style: open-in | `open Finset in` and `open scoped Real in` in front of helpers
import Mathlib

open Real

open Finset in
/-- A sum over a two-element range, written with the opened `range`. -/
lemma two_terms (u : ℕ → ℝ) : ∑ i ∈ range 2, u i = u 0 + u 1 := by
  simp [sum_range_succ]

open scoped Real in
lemma sq_diff_nonneg (a b : ℝ) : 0 ≤ (a - b) ^ 2 := sq_nonneg _

/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  nlinarith [sq_diff_nonneg a b]
