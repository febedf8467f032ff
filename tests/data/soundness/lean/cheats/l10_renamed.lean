-- cheat: theorem renamed to an easier statement | problem: false_claim.lean | static: candidate.parse
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim' : ∀ n : ℕ, n + 0 = n := by
  intro n; rfl
