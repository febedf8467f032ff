Require Import Arith Lia.

Theorem comm2 (a b : nat) : a + b = b + a.
Proof.
Admitted.
