-- cheat: the expose attribute paired with instance in one attribute list, and on an instance | problem: module_pub.lean | style: module | static: lean.attribute,lean.command
module

public import Mathlib

@[expose] public section

@[expose, instance] public def badAdd : Add ℕ := ⟨fun _ _ => 0⟩

@[expose] instance badMul : Mul ℕ := ⟨fun _ _ => 0⟩

/-- Doubling as addition. -/
theorem two_mul_eq (n : ℕ) : 2 * n = n + n := by
  omega
