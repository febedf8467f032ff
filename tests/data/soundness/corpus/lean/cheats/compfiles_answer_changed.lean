-- cheat: the compfiles `determine` answer changed by the candidate | problem: compfiles_demo.lean | static: candidate.preamble | style: compfiles
import Mathlib.Tactic
import ProblemExtraction

problem_file { tags := [.NumberTheory] }

namespace Demo2024P1

determine solution : ℕ := 4

problem demo2024_p1 : 2 * 3 = solution ∧ solution % 2 = 0 := by
  sorry

end Demo2024P1
