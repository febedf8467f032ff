-- cheat: a helper placed before a problem definition takes a name that definition uses (`Nat.f` would compete with `f` under `open Nat`) | problem: g_two.lean | static: candidate.shadowing | style: interleaved
import Mathlib

def f (n : ℕ) : ℕ := n * n + 1

namespace Nat
def f (n : ℕ) : ℕ := 7
end Nat

def g (n : ℕ) : ℕ := f n + f (n + 1)

theorem g_two : g 2 = 15 := by
  decide
