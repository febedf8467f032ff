import Mathlib

/-- Part (a): a closed form. -/
theorem part_a (n : ℕ) : 2 * (∑ i ∈ Finset.range (n + 1), i) = n * (n + 1) := by
  sorry

/-- Part (b): the same for an arbitrary function with that closed form. -/
theorem part_b (f : ℕ → ℕ) (hf : ∀ n, f n = n * (n + 1)) : f 3 = 12 := by
  sorry
