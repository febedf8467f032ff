-- cheat: implemented_by swaps the compiled code of a helper | problem: nat_add.lean | static: lean.native,lean.attribute
import Mathlib

open Nat

def fastAdd (a b : ℕ) : ℕ := a + b

@[implemented_by fastAdd] def slowAdd (a b : ℕ) : ℕ := b + a

/-- Commutativity of addition. -/
theorem nat_add (n m : ℕ) : n + m = m + n := by
  omega
