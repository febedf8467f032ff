-- honest | problem: amgm2.lean | style: column-0 | tactic blocks and a term proof written at column 0
import Mathlib

open Real

lemma diff_sq (a b : ℝ) : 0 ≤ (a - b) ^ 2 := by
have h := sq_nonneg (a - b)
exact h

lemma refl_le (c : ℝ) : c ≤ c :=
le_refl c

/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
have := diff_sq a b
nlinarith [refl_le a]
