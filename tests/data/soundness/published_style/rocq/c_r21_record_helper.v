Require Import Arith Lia.

Record pt := mkPt { px : nat; py : nat }.

Definition swap (p : pt) : pt := mkPt (py p) (px p).

Lemma swap_swap (p : pt) : swap (swap p) = p.
Proof. destruct p; reflexivity. Qed.

Theorem add_swap (a b : nat) : a + b = b + a.
Proof.
  lia.
Qed.
