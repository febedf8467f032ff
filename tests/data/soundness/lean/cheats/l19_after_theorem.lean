-- cheat: an extra declaration after the theorem | problem: nat_add.lean | static: candidate.suffix
import Mathlib

open Nat

/-- Commutativity of addition. -/
theorem nat_add (n m : ℕ) : n + m = m + n := by
  omega

theorem extra : True := trivial
