(* honest | problem: mathd_algebra_171.v | miniF2F-rocq problem, ring *)
Require Import Reals.
Open Scope R_scope.

Theorem mathd_algebra_171 (f : R -> R) :
  (forall x, f x = 5 * x + 4) -> f 1 = 9.
Proof.
  intros h. rewrite h. ring.
Qed.
