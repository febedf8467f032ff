-- cheat: `open ... in` opening a scope whose notation changes the statement, wedged before the theorem | problem: amgm2.lean | static: lean.command | style: open-in
import Mathlib

open Real

lemma sq_diff (a b : ℝ) : 0 ≤ (a - b) ^ 2 := sq_nonneg _

open scoped Classical in
/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  nlinarith [sq_diff a b]
