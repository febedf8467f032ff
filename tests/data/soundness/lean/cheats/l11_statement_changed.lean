-- cheat: statement changed | problem: false_claim.lean | static: candidate.statement
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 0 = n := by
  intro n; rfl
