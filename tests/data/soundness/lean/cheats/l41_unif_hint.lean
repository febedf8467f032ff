-- cheat: an indented unif_hint after a helper | problem: false_claim.lean | static: lean.command
import Mathlib

theorem helper : True := trivial
  unif_hint (n : ℕ) where
    n + 1 =?= n
    ⊢ n =?= n

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n; rfl
