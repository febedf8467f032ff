-- cheat: an `end` among the helpers closes the problem's namespace, so the theorem lands elsewhere | problem: contest_ns.lean | static: lean.command | style: namespace
import Mathlib

namespace Contest2024P1

end Contest2024P1

axiom boom : ∀ x : ℤ, 9 ∣ x ^ 2

namespace Contest2024P1

/-- If three divides `x`, nine divides its square. -/
theorem main_result (x : ℤ) (h : 3 ∣ x) : 9 ∣ x ^ 2 := boom x

end Contest2024P1
