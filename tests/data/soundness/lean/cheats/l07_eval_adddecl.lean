-- cheat: #eval runs addDecl at elaboration time | problem: false_claim.lean | static: lean.command,lean.meta
import Mathlib

#eval Lean.addDecl (.axiomDecl { name := `evil, levelParams := [], type := .const ``False [], isUnsafe := false })

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  exact evil.elim
