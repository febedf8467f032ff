-- cheat: a safe set_option ... in followed by debug.skipKernelTC on the same line | problem: false_claim.lean | static: lean.set_option
import Mathlib

set_option maxHeartbeats 400000 in set_option debug.skipKernelTC true in
-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  intro n; rfl
