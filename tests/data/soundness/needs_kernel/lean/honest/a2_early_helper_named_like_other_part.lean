-- honest: the solution's general lemma, placed before part (a), is named `Solution.part_a` | problem: defs_then_parts.lean | theorem: part_b | expect: static | class: a
import Mathlib

def g (n : ℕ) : ℕ := n * n + 1

/-- What part (a) computes, for every argument. -/
theorem Solution.part_a (n : ℕ) : g n = n * n + 1 := rfl

theorem part_a : g 2 = 5 := by
  sorry

theorem part_b (n : ℕ) : 1 ≤ g n := by
  rw [Solution.part_a]
  omega
