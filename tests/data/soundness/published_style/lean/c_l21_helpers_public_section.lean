module

public import Mathlib

@[expose] public section

lemma aux_pos (n : ℕ) : 0 < n + 1 := Nat.succ_pos n

end

theorem pos_succ (n : ℕ) : 0 < n + 1 := aux_pos n
