-- cheat: axiom added before the theorem | problem: false_claim.lean | static: lean.command
import Mathlib

axiom cheat : ∀ n : ℕ, n + 1 = n

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  exact cheat
