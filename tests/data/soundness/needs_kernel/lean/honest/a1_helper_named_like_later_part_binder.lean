-- honest: a helper `f` for part (a); part (b), after the target, binds its own `f` | problem: two_parts.lean | theorem: part_a | expect: static | class: a
import Mathlib

/-- The partial sums of the identity. -/
def f (n : ℕ) : ℕ := ∑ i ∈ Finset.range (n + 1), i

lemma two_f (n : ℕ) : 2 * f n = n * (n + 1) := by
  induction n with
  | zero => simp [f]
  | succ k ih =>
    simp only [f] at ih ⊢
    rw [Finset.sum_range_succ, mul_add, ih]
    ring

/-- Part (a): a closed form. -/
theorem part_a (n : ℕ) : 2 * (∑ i ∈ Finset.range (n + 1), i) = n * (n + 1) := by
  exact two_f n

/-- Part (b): the same for an arbitrary function with that closed form. -/
theorem part_b (f : ℕ → ℕ) (hf : ∀ n, f n = n * (n + 1)) : f 3 = 12 := by
  sorry
