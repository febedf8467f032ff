import Mathlib

open Nat

theorem one_le (m : ℕ) (h : 0 < m) : 1 ≤ m := sorry
