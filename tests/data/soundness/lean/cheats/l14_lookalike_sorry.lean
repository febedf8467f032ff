-- cheat: sorry spelled with a Cyrillic s | problem: false_claim.lean | static: lookalike
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n
  exact ѕorry
