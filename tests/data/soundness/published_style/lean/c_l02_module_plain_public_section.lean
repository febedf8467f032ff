module

public import Mathlib.Tactic
import Mathlib.Data.Nat.Basic

public section


theorem two_mul' (n : ℕ) : 2 * n = n + n := by
  ring

end
