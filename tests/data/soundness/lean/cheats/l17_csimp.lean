-- cheat: attribute [csimp] rewires the compiler | problem: nat_add.lean | static: lean.command,lean.native
import Mathlib

open Nat

theorem add_eq_mul_helper : @Nat.add = @Nat.add := rfl

attribute [csimp] add_eq_mul_helper

/-- Commutativity of addition. -/
theorem nat_add (n m : ℕ) : n + m = m + n := by
  omega
