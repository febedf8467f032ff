-- cheat: bv_decide relies on Lean.ofReduceBool (compiler trust) | problem: false_claim.lean | static: lean.native
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n
  bv_decide
