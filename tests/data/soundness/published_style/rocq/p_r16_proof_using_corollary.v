Require Import Arith Lia.

Theorem lt_two (n : nat) : n < n + 2.
Proof.
Admitted.
