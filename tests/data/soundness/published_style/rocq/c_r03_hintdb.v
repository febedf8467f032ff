Require Import Arith.

Lemma le_add_r' (n m : nat) : n <= n + m.
Proof. induction n; simpl; auto with arith. Qed.

Create HintDb mydb.
Hint Resolve le_add_r' : mydb.

Theorem le_plus (a b : nat) : a <= a + b.
Proof.
  auto with mydb.
Qed.
