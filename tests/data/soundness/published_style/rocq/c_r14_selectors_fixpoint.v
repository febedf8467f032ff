Require Import Arith Lia.

Fixpoint sum_to (n : nat) : nat := match n with 0 => 0 | S k => S k + sum_to k end.

Lemma sum_to_S (n : nat) : sum_to (S n) = S n + sum_to n.
Proof. reflexivity. Defined.

Theorem sum_to_twice (n : nat) : 2 * sum_to n = n * (n + 1).
Proof.
  induction n as [|k IH].
  1: reflexivity.
  rewrite sum_to_S.
  all: nia.
Qed.
