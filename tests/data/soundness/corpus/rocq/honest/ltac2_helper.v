(* honest | problem: sum_le.v | style: ltac2 | an Ltac2 definition (with the Ltac2 import) and an Ltac definition among the helpers *)
Require Import Arith Lia.

Ltac finish := intros; lia.

From Ltac2 Require Import Ltac2.

Ltac2 close () := ltac1:(finish).

Lemma add_mono (x y z : nat) : x <= y -> x + z <= y + z.
Proof. close (). Qed.

(* Twice a sum bounds the sum of the doubles. *)
Theorem sum_le (a b c : nat) (h : a <= b) : a + c <= b + c.
Proof.
  exact (add_mono a b c h).
Qed.
