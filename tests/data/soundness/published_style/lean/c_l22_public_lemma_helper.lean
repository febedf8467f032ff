module

public import Mathlib

public lemma aux_pos (n : ℕ) : 0 < n + 1 := Nat.succ_pos n

@[expose] public def dbl (n : ℕ) : ℕ := 2 * n

theorem pos_succ (n : ℕ) : 0 < n + 1 := aux_pos n
