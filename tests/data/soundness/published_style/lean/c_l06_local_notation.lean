import Mathlib

section
local notation "‖" x "‖₂" => x ^ 2
lemma sq_def (x : ℤ) : ‖x‖₂ = x * x := by ring
end

theorem sq_eq (x : ℤ) : x ^ 2 = x * x := by
  ring
