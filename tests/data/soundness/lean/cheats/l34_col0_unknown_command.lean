-- cheat: a column-0 command that no word list names, after a helper | problem: false_claim.lean | static: lean.command
import Mathlib

theorem helper : True := trivial

my_new_command ℕ

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n; rfl
