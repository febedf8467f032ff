-- honest | problem: contest_ns.lean | style: namespace | helpers inside the problem's own namespace, one in a nested helper section
import Mathlib

namespace Contest2024P1

section
variable (y : ℤ)
lemma sq_of_dvd (h : 3 ∣ y) : 9 ∣ y * y := by
  obtain ⟨k, rfl⟩ := h
  exact ⟨k * k, by ring⟩
end

/-- If three divides `x`, nine divides its square. -/
theorem main_result (x : ℤ) (h : 3 ∣ x) : 9 ∣ x ^ 2 := by
  rw [sq]
  exact sq_of_dvd x h

end Contest2024P1
