-- cheat: an indented #print inside the body (Lean commands need no column 0) | problem: nat_add.lean | static: lean.command
import Mathlib

open Nat

/-- Commutativity of addition. -/
theorem nat_add (n m : ℕ) : n + m = m + n := by
  omega
  #print axioms nat_add
