(* honest | problem: mathd_algebra_141.v | miniF2F-rocq problem, Unicode hypothesis names, braces *)
Require Import Reals.
Open Scope R_scope.

Theorem mathd_algebra_141
  (a b : R)
  (h₁ : a * b = 180)
  (h₂ : 2 * (a + b) = 54) :
  a^2 + b^2 = 369.
Proof.
  assert (hs : a + b = 27).
  { apply (Rmult_eq_reg_l 2). rewrite h₂. ring. discrR. }
  replace (a ^ 2 + b ^ 2) with ((a + b) ^ 2 - 2 * (a * b)) by ring.
  rewrite hs, h₁. ring.
Qed.
