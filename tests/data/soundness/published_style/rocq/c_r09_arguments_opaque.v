Require Import Arith Lia.

Definition sq (n : nat) := n * n.
Arguments sq n : simpl never.

Lemma sq_ge (n : nat) : n <= sq n \/ n = 0.
Proof. unfold sq. destruct n; [right; reflexivity | left; nia]. Qed.
Opaque sq.

Theorem nat_sq (n : nat) : n <= n * n \/ n = 0.
Proof.
  destruct n; [right; reflexivity | left; nia].
Qed.
