-- cheat: a `section` whose `variable` adds a hypothesis to the theorem (the section is left open) | problem: false_claim.lean | static: lean.command | style: section
import Mathlib

section Sneaky

variable [h : Fact (1 = 0)]

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n; have := h.out; omega
