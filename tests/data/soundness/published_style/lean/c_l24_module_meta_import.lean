module

public import Mathlib
import all Mathlib.Tactic
meta import Mathlib.Tactic.Ring


theorem r (a : ℤ) : (a + 1) ^ 2 = a ^ 2 + 2 * a + 1 := by ring
