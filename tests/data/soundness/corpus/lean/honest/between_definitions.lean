-- honest | problem: g_two.lean | style: interleaved | helpers placed between the definitions the statement uses
import Mathlib

def f (n : ℕ) : ℕ := n * n + 1

lemma f_two : f 2 = 5 := by decide

open Nat in
lemma f_three : f 3 = 10 := by decide

def g (n : ℕ) : ℕ := f n + f (n + 1)

lemma g_unfold (n : ℕ) : g n = f n + f (n + 1) := rfl

theorem g_two : g 2 = 15 := by
  have h3 : f (2 + 1) = 10 := f_three
  rw [g_unfold, f_two, h3]
