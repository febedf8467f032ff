Require Import Arith.

(* The problem's own unproved lemma: using it must not count as a proof. *)
Theorem lemma_one : forall n : nat, n + 1 = n.
Proof.
Admitted.

Theorem two_theorems : forall n : nat, n + 1 = n.
Proof.
Admitted.
