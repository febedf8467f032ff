import Mathlib.Tactic

/-!
# The shape of a compfiles problem after extraction: the answer is left open.
-/

namespace Demo2024P2

/- determine -/ abbrev solution : Set ℕ := sorry

theorem demo2024_p2 (n : ℕ) : n ∈ solution ↔ 3 ∣ n * n := by
  sorry

end Demo2024P2
