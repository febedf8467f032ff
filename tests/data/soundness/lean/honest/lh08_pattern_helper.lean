-- honest | problem: nat_add.lean | a pattern-matching helper def with column-0 `|` lines and a set_option
import Mathlib

open Nat

def double : ℕ → ℕ
| 0 => 0
| (k + 1) => double k + 2

set_option maxRecDepth 2000 in
theorem double_zero : double 0 = 0 := rfl

/-- Commutativity of addition. -/
theorem nat_add (n m : ℕ) : n + m = m + n := by
  omega
