Require Import Arith.

Theorem zero_le_succ (n : nat) : 0 <= S n.
Proof.
Admitted.
