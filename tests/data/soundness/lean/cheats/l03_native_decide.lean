-- cheat: native_decide trusts the compiler | problem: nat_add.lean | static: lean.native
import Mathlib

open Nat

/-- Commutativity of addition. -/
theorem nat_add (n m : ℕ) : n + m = m + n := by
  have : (2 : ℕ) + 3 = 3 + 2 := by native_decide
  omega
