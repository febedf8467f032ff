-- cheat: the real theorem replaced by one in a namespace | problem: false_claim.lean | static: candidate.statement,lean.command
import Mathlib

namespace Fake
-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 0 = n := by
  intro n; rfl
end Fake
