(* honest | problem: real_sq.v | helper lemma inserted before the theorem *)
Require Import Reals Lra Psatz.
Open Scope R_scope.

Definition sq (x : R) := x * x.

Lemma square_nonneg (a : R) : 0 <= a * a.
Proof.
  nra.
Qed.

Theorem real_sq (x y : R) : sq x + y * y >= 0.
Proof.
  unfold sq.
  pose proof (square_nonneg x).
  pose proof (square_nonneg y).
  lra.
Qed.
