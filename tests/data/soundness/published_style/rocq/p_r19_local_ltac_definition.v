Require Import Arith Lia.

Theorem add3 (n : nat) : n + 3 = 3 + n.
Proof.
Admitted.
