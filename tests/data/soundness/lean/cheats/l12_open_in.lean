-- cheat: open ... in before the theorem changes how the statement elaborates | problem: nat_add.lean | static: lean.command
import Mathlib

open Nat

open Classical in
/-- Commutativity of addition. -/
theorem nat_add (n m : ℕ) : n + m = m + n := by
  omega
