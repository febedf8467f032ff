Require Import ZArith Lia.

Theorem double_even (z : Z) : ((2 * z) mod 2 = 0)%Z.
Proof.
Admitted.
