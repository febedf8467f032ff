Require Import Arith Lia.

Local Ltac crush := intros; simpl; lia.

Local Definition three := 3.

#[local] Lemma three_eq : three = 3.
Proof. reflexivity. Qed.

Theorem add3 (n : nat) : n + 3 = 3 + n.
Proof.
  crush.
Qed.
