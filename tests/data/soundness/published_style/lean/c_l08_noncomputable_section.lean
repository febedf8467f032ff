import Mathlib

noncomputable section

def half (x : ℝ) : ℝ := x / 2

lemma half_add (x : ℝ) : half x + half x = x := by
  unfold half; ring

end

theorem halves (x : ℝ) : x / 2 + x / 2 = x := by
  ring
