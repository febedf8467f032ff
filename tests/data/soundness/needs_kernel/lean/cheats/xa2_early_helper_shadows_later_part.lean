-- cheat: multi-part: a helper placed before part (a) named like `g`, which part (a) uses | problem: defs_then_parts.lean | theorem: part_b | expect: rejected | static: candidate.shadowing | class: a
import Mathlib

def g (n : ℕ) : ℕ := n * n + 1

namespace Nat
def g (n : ℕ) : ℕ := n + 1
end Nat

theorem part_a : g 2 = 5 := by
  sorry

theorem part_b (n : ℕ) : 1 ≤ g n := by
  unfold g
  omega
