-- cheat: «--» looked like a line comment and hid an instance on the same line | problem: false_claim.lean | static: lean.lexing,lean.command
import Mathlib

def «--» : ℕ := 0 instance (priority := high) weirdAdd : Add ℕ := ⟨fun a _ => a⟩

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n; rfl
