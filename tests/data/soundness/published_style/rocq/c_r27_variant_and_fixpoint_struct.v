Require Import Arith Lia.

Variant color := Red | Green.

Definition flip (c : color) : color := match c with Red => Green | Green => Red end.

Lemma flip_flip (c : color) : flip (flip c) = c.
Proof. destruct c; reflexivity. Qed.

Theorem lt_add_one (n : nat) : n < n + 1.
Proof.
  lia.
Qed.
