-- cheat: a trailing end, then the theorem name declared again outside the namespace | problem: contest_open.lean | style: trailing-end | static: candidate.suffix,candidate.duplicate
import Mathlib

namespace Contest

theorem add_zero_eq (n : ℕ) : n + 0 = n := by
  simp

end Contest

theorem add_zero_eq : True := trivial
