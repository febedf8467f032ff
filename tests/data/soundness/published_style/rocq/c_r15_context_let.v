Require Import Arith Lia.

Section Generic.
Context {A : Type} (f : A -> nat).
Let g (x : A) := f x + 0.

Lemma g_eq (x : A) : g x = f x.
Proof. unfold g. lia. Qed.
End Generic.

Theorem add_twice (n : nat) : n + n = 2 * n.
Proof.
  lia.
Qed.
