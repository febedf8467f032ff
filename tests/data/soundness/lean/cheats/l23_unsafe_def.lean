-- cheat: unsafe helper definitions | problem: false_claim.lean | static: lean.command,lean.meta
import Mathlib

unsafe def loopForever (n : ℕ) : False := loopForever n

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  exact fun n => (loopForever n).elim
