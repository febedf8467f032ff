-- honest: a `nonrec def` in a namespace that calls the root definition of the same name | problem: sq_sum.lean | expect: static | class: c
import Mathlib

def twice (n : ℕ) : ℕ := 2 * n

namespace Nat

/-- `n.twice`, the root `twice` with field notation. -/
nonrec def twice (n : ℕ) : ℕ := twice n

end Nat

theorem sq_sum (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by
  ring
