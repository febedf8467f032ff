(* honest | problem: real_sq.v | nra over R (reals' axioms) *)
Require Import Reals Lra Psatz.
Open Scope R_scope.

Definition sq (x : R) := x * x.

Theorem real_sq (x y : R) : sq x + y * y >= 0.
Proof.
  unfold sq. nra.
Qed.
