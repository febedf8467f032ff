-- cheat: an axiom declared after the proof, behind a read-only `#print axioms` | problem: false_claim.lean | static: candidate.suffix | style: readonly
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n; exact boom n

#print axioms false_claim
axiom boom : ∀ n : ℕ, n + 1 = n
