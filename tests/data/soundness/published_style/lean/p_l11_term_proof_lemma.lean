import Mathlib

lemma lt_succ' (n : ℕ) : n < n + 1 := sorry
