-- cheat: a raw string the screen's lexer would misread, hiding a sorry | problem: false_claim.lean | static: lean.raw_string
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  have _s : String := r"\"
  exact fun n => sorry -- "
