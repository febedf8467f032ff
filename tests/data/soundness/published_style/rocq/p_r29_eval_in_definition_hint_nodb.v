Require Import Arith Lia.

Theorem six_pos : 0 < 6.
Proof.
Admitted.
