import Mathlib

open Nat

namespace MyAux

variable {n : ℕ}

lemma helper_pos (h : 0 < n) : 1 ≤ n := h

end MyAux

theorem one_le (m : ℕ) (h : 0 < m) : 1 ≤ m := MyAux.helper_pos h
