-- cheat: an `open ... in` left at the end of a helper run applies to the problem's next definition | problem: g_two.lean | static: lean.command | style: open-in
import Mathlib

def f (n : ℕ) : ℕ := n * n + 1

lemma f_two : f 2 = 5 := by decide

open Classical in
def g (n : ℕ) : ℕ := f n + f (n + 1)

theorem g_two : g 2 = 15 := by
  decide
