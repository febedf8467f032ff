-- cheat: an indented binder_predicate after a helper redefines the `> y` binder | problem: false_claim.lean | static: lean.command
import Mathlib

theorem helper : True := trivial
  binder_predicate x " > " y:term => `($x = $x)

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n; rfl
