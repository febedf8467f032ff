-- cheat: a column-0 alias after a helper (alias declares a name the shadowing rule did not see) | problem: nat_add.lean | static: lean.command
import Mathlib

open Nat

theorem my_helper (a b : ℕ) : a + b = b + a := Nat.add_comm a b

alias my_comm := my_helper

/-- Commutativity of addition. -/
theorem nat_add (n m : ℕ) : n + m = m + n := by
  exact my_comm n m
