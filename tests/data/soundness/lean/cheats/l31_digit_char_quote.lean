-- cheat: 1'"' is a number then a char literal to Lean; the old masker saw a string hiding a notation | problem: false_claim.lean | static: lean.lexing,lean.command
import Mathlib

def c₁ : ℕ × Char := Prod.mk 1'"'
local notation:65 a " + " b => (a : ℕ)
def c₂ : Char × ℕ := Prod.mk '"'1

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n; rfl
