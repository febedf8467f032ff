Require Import Arith Lia.

Theorem add_swap (a b : nat) : a + b = b + a.
Proof.
Admitted.
