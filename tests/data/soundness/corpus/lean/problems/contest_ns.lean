import Mathlib

namespace Contest2024P1

/-- If three divides `x`, nine divides its square. -/
theorem main_result (x : ℤ) (h : 3 ∣ x) : 9 ∣ x ^ 2 := by
  sorry

end Contest2024P1
