-- honest | problem: nat_add.lean | primed names, a «name» helper, a string and a char literal
import Mathlib

open Nat

theorem «comm helper» (a' b' : ℕ) : a' + b' = b' + a' := by
  have h' : "x".length = 1 := rfl
  have c' : 'a'.toNat = 97 := rfl
  omega

/-- Commutativity of addition. -/
theorem nat_add (n m : ℕ) : n + m = m + n := by
  exact «comm helper» n m
