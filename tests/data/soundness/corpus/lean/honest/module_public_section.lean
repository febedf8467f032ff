-- honest | problem: module_pub.lean | style: module | a Lean module-system file (Mathlib since its move to modules): module header, @[expose] public section, helpers in their own public section with @[expose] def, public lemma and private theorem
module

public import Mathlib

@[expose] public section

@[expose] public section

/-- Doubling, exposed so importers may unfold it. -/
@[expose] public def dbl (n : ℕ) : ℕ := n + n

public lemma dbl_eq (n : ℕ) : dbl n = 2 * n := by
  unfold dbl; ring

private theorem dbl_eq' (n : ℕ) : 2 * n = dbl n := (dbl_eq n).symm

end

/-- Doubling as addition. -/
theorem two_mul_eq (n : ℕ) : 2 * n = n + n := by
  rw [dbl_eq', dbl]
