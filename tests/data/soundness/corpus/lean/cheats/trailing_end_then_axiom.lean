-- cheat: an allowed trailing end followed by an axiom and a second namespace block | problem: contest_open.lean | style: trailing-end | static: candidate.suffix,lean.command
import Mathlib

namespace Contest

theorem add_zero_eq (n : ℕ) : n + 0 = n := by
  simp

end Contest

axiom boom : False

namespace Contest
end Contest
