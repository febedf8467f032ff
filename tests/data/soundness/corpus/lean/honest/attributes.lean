-- honest | problem: g_two.lean | style: attributes | `@[simp]` and `attribute [simp]` on helpers, `@[simp, reducible]` on a helper definition
import Mathlib

def f (n : ℕ) : ℕ := n * n + 1

def g (n : ℕ) : ℕ := f n + f (n + 1)

@[simp] lemma f_val (n : ℕ) : f n = n * n + 1 := rfl

lemma g_val (n : ℕ) : g n = f n + f (n + 1) := rfl

attribute [simp] g_val

@[simp, reducible] def twice (n : ℕ) : ℕ := 2 * n

theorem g_two : g 2 = 15 := by
  simp
