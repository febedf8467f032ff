import Mathlib.Tactic
import ProblemExtraction

problem_file { tags := [.NumberTheory] }

/-!
# A compfiles-style problem: `determine` fixes the answer, `problem` is the theorem.
-/

namespace Demo2024P1

determine solution : ℕ := 6

problem demo2024_p1 : 2 * 3 = solution ∧ solution % 2 = 0 := by
  sorry

end Demo2024P1
