-- cheat: local instance redefines addition on ℕ | problem: false_claim.lean | static: lean.command
import Mathlib

local instance (priority := high) weirdAdd : Add ℕ := ⟨fun a _ => a⟩

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n; rfl
