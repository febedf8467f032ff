Require Import Arith.

Lemma add0 (n : nat) : n + 0 = n.
Proof. induction n; simpl; [reflexivity | rewrite IHn; reflexivity]. Qed.

Global Hint Rewrite add0 : arith_rw.

Theorem add00 (n : nat) : (n + 0) + 0 = n.
Proof.
  autorewrite with arith_rw. reflexivity.
Qed.
