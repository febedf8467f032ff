module

public import Mathlib

@[expose] public section

private def sq (n : ℕ) : ℕ := n * n

private theorem sq_eq (n : ℕ) : sq n = n ^ 2 := by
  unfold sq; ring

theorem sq_two : (2 : ℕ) ^ 2 = 4 := by
  norm_num
