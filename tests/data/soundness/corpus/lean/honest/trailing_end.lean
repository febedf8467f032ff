-- honest | problem: contest_open.lean | style: trailing-end | the published file closes the namespace the problem file leaves open
import Mathlib

namespace Contest

theorem add_zero_eq (n : ℕ) : n + 0 = n := by
  simp

end Contest
