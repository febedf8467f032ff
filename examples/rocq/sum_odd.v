Require Import Arith Lia.
(* Written for this repository. *)
Fixpoint sum_odd (n : nat) : nat :=
  match n with
  | 0 => 0
  | S k => sum_odd k + (2 * k + 1)
  end.

Theorem sum_odd_square (n : nat) : sum_odd n = n * n.
Proof.
Admitted.
