-- honest | problem: compfiles_demo.lean | style: compfiles | `snip begin`/`snip end` around helpers, `problem` and `determine` as compfiles writes them
import Mathlib.Tactic
import ProblemExtraction

problem_file { tags := [.NumberTheory] }

/-!
# A compfiles-style problem: `determine` fixes the answer, `problem` is the theorem.
-/

namespace Demo2024P1

snip begin

lemma six_even : 6 % 2 = 0 := by decide

snip end

determine solution : ℕ := 6

problem demo2024_p1 : 2 * 3 = solution ∧ solution % 2 = 0 := by
  exact ⟨rfl, six_even⟩

end Demo2024P1
