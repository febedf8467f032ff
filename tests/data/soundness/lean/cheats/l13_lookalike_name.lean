-- cheat: a Cyrillic look-alike of the theorem name carries the proof | problem: false_claim.lean | static: lookalike
import Mathlib

theorem fаlse_claim : ∀ n : ℕ, n + 0 = n := by
  intro n; rfl

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  exact fаlse_claim
