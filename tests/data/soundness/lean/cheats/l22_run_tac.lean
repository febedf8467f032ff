-- cheat: run_tac metaprogram closes the goal | problem: false_claim.lean | static: lean.command,lean.meta
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  run_tac do
    let g ← Lean.Elab.Tactic.getMainGoal
    g.admit
