import Mathlib


theorem exists_succ (n : ℕ) : ∃ m, m = n + 1 := ⟨n + 1, rfl⟩
