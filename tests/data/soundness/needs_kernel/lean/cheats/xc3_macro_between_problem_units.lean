-- cheat: a macro placed between the problem's definition and its theorems (the reference statement would see it too) | problem: defs_then_parts.lean | theorem: part_b | expect: rejected | static: lean.command | class: c
import Mathlib

def g (n : ℕ) : ℕ := n * n + 1

macro "solve_g" : tactic => `(tactic| (unfold g; omega))

theorem part_a : g 2 = 5 := by
  sorry

theorem part_b (n : ℕ) : 1 ≤ g n := by
  solve_g
