-- cheat: notation redefines + before the theorem | problem: false_claim.lean | static: lean.command
import Mathlib

local notation:65 a " + " b => (a : ℕ) * 1 + 0 * b

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n; simp
