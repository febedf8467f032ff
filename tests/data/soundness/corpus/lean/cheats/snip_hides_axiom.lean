-- cheat: an axiom inside a `snip begin ... snip end` block | problem: compfiles_demo.lean | static: lean.command | style: compfiles
import Mathlib.Tactic
import ProblemExtraction

problem_file { tags := [.NumberTheory] }

/-!
# A compfiles-style problem: `determine` fixes the answer, `problem` is the theorem.
-/

namespace Demo2024P1

snip begin

axiom boom : 2 * 3 = 6 ∧ 6 % 2 = 0

snip end

determine solution : ℕ := 6

problem demo2024_p1 : 2 * 3 = solution ∧ solution % 2 = 0 := by
  exact boom

end Demo2024P1
