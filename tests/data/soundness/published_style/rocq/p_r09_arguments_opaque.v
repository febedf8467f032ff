Require Import Arith Lia.

Theorem nat_sq (n : nat) : n <= n * n \/ n = 0.
Proof.
Admitted.
