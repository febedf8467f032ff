Require Import Arith Lia.

Theorem four_even : exists k, 4 = k + k.
Proof.
Admitted.
