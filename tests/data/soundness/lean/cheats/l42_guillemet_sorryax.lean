-- cheat: sorryAx and Lean.ofReduceBool spelled with guillemets | problem: false_claim.lean | static: lean.hole,lean.meta,lean.native
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  exact «sorryAx» _ false
