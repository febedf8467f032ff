Require Import Arith.

Theorem le_succ (k : nat) : k <= S k.
Proof.
Admitted.
