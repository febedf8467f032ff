(* honest | problem: rdefs.v | style: interleaved | an Ltac and helper lemmas placed before the definitions the statement uses *)
Require Import Arith Lia.

Ltac crush := intros; simpl; lia.

Definition f (n : nat) : nat := n * n + 1.

Lemma f_two : f 2 = 5.
Proof. reflexivity. Qed.

Lemma f_three : f 3 = 10.
Proof. reflexivity. Qed.

Definition g (n : nat) : nat := f n + f (S n).

Lemma g_unfold (n : nat) : g n = f n + f (S n).
Proof. reflexivity. Qed.

Theorem g_two : g 2 = 15.
Proof.
  rewrite g_unfold, f_two, f_three. crush.
Qed.
