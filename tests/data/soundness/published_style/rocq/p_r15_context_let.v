Require Import Arith Lia.

Theorem add_twice (n : nat) : n + n = 2 * n.
Proof.
Admitted.
