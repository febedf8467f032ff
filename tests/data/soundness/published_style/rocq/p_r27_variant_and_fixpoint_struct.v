Require Import Arith Lia.

Theorem lt_add_one (n : nat) : n < n + 1.
Proof.
Admitted.
