-- cheat: set_option debug.skipKernelTC inside the proof | problem: false_claim.lean | static: lean.set_option
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  set_option debug.skipKernelTC true in
  intro n; exact (by simp : n + 1 = n)
