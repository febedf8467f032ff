-- cheat: a quote inside «a"» opened a fake string for the screens, hiding a local notation | problem: false_claim.lean | static: lean.lexing,lean.command
import Mathlib

def «a"» : ℕ := 0
local notation:65 a " + " b => (a : ℕ)
def «b"» : ℕ := 0

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n; rfl
