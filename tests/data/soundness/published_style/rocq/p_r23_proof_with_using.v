Require Import Arith Lia.

Theorem one_le_succ (n : nat) : 1 <= S n.
Proof.
Admitted.
