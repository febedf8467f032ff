-- cheat: irreducible_def declares a name used in the statement, unseen by the shadowing rule | problem: mathd_algebra_171.lean | static: lean.command
import Mathlib

set_option maxHeartbeats 0

open BigOperators Real Nat Topology Rat

irreducible_def h₀ : ℕ := 0

theorem mathd_algebra_171
  (f : ℝ → ℝ)
  (h₀ : ∀x, f x = 5 * x + 4) :
  f 1 = 9 := by
  rw [h₀]; norm_num
