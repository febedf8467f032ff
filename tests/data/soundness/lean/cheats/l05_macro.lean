-- cheat: a macro tactic that hides the hole | problem: false_claim.lean | static: lean.command,lean.hole
import Mathlib

macro "finish_it" : tactic => `(tactic| sorry)

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  finish_it
