-- cheat: «/-» ... «-/» looked like a block comment hiding sorry | problem: false_claim.lean | static: lean.lexing,lean.hole
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  have «/-» : True := trivial
  exact sorry
  have «-/» : True := trivial
