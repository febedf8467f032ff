(* honest | problem: nat_add.v | an Ltac helper and a Defined helper lemma *)
Require Import Arith Lia.

Ltac finish := intros; lia.

Lemma add_comm_helper (a b : nat) : a + b = b + a.
Proof. finish. Defined.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  apply add_comm_helper.
Qed.
