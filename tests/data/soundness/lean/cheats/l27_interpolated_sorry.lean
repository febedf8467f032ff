-- cheat: sorry hidden inside string interpolation, which a naive string masker blanks out | problem: false_claim.lean | static: lean.raw_string
import Mathlib

-- A FALSE statement: every accepted candidate would be a soundness bug.
theorem false_claim : ∀ n : ℕ, n + 1 = n := by
  have h : ∀ n : ℕ, n + 1 = n := by
    have _s : String := s!"{(sorry : ∀ n : ℕ, n + 1 = n)}"
    exact fun n => by simp_all
  exact h
