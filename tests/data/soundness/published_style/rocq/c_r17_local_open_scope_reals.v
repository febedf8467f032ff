Require Import Reals.

Require Import Lra Psatz.
Local Open Scope R_scope.

Lemma sq_nonneg' (x : R) : 0 <= x * x.
Proof. nra. Qed.

Theorem sum_sq (x y : R) : (0 <= x * x + y * y)%R.
Proof.
  pose proof (sq_nonneg' x). pose proof (sq_nonneg' y). lra.
Qed.
