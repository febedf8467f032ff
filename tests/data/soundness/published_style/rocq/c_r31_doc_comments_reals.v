Require Import Reals Lra.
Open Scope R_scope.

(** * Auxiliary facts *)

(** A square is nonnegative. *)
Lemma sq_nn (x : R) : 0 <= x * x.
Proof.
  destruct (Rle_or_lt 0 x) as [H|H].
  - apply Rmult_le_pos; assumption.
  - replace (x * x) with ((- x) * (- x)) by ring.
    apply Rmult_le_pos; lra.
Qed.

Theorem sq_plus_one (x : R) : 0 < x * x + 1.
Proof.
  pose proof (sq_nn x). lra.
Qed.
