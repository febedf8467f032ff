(* cheat: Unset Universe Checking around a helper | problem: nat_add.v | static: rocq.banned,rocq.command | dynamic: axioms *)
Require Import Arith Lia.

Unset Universe Checking.
Lemma comm_helper (a b : nat) : a + b = b + a.
Proof. lia. Qed.
Set Universe Checking.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  apply comm_helper.
Qed.
