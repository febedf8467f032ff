-- honest | problem: amgm2.lean | style: namespace | helpers in `namespace ... end`, a dotted helper name, `private`/`protected`
import Mathlib

open Real

namespace AmGm

protected theorem core (a b : ℝ) : 0 ≤ (a - b) ^ 2 := sq_nonneg _

private lemma expand (a b : ℝ) : ((a + b) / 2) ^ 2 - a * b = (a - b) ^ 2 / 4 := by ring

theorem bound (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  nlinarith [AmGm.core a b, expand a b]

end AmGm

theorem Real.amgm_helper (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := AmGm.bound a b

/-- For real numbers, the product is at most the square of the mean. -/
theorem amgm2 (a b : ℝ) : a * b ≤ ((a + b) / 2) ^ 2 := by
  exact Real.amgm_helper a b
