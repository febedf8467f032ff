Require Import Arith Lia.

Definition f (n : nat) : nat := n * n + 1.

Definition g (n : nat) : nat := f n + f (S n).

Theorem g_two : g 2 = 15.
Proof.
Admitted.
