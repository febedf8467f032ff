-- cheat: lcProof, a core axiom that proves any Prop | problem: false_claim.lean | static: lean.hole
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := lcProof
