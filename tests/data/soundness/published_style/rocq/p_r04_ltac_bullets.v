Require Import Arith Lia.

Theorem sum_both (n m : nat) : (n + 0) + (0 + m) = n + m.
Proof.
Admitted.
