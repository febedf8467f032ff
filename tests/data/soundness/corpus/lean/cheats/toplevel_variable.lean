-- cheat: a top-level `variable` of the helpers, whose instance binder Lean includes in the theorem | problem: false_claim.lean | static: lean.command | style: section
import Mathlib

variable [h : Fact (1 = 0)]

lemma boom : (1 : ℕ) = 0 := h.out

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n; have := boom; omega
