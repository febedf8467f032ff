-- cheat: elab + addDecl smuggles an unchecked declaration | problem: false_claim.lean | static: lean.command,lean.meta
import Mathlib

open Lean Elab Command in
elab "make_it_so" : command => do
  let decl := Declaration.axiomDecl { name := `smuggled, levelParams := [], type := mkConst ``False, isUnsafe := false }
  liftCoreM (addDecl decl)

make_it_so

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  exact (smuggled).elim
