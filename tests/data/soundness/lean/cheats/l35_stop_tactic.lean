-- cheat: the stop tactic expands to repeat sorry | problem: false_claim.lean | static: lean.hole
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n
  stop omega
