Require Import Arith Lia.

Theorem add_comm' (n m : nat) : n + m = m + n.
Proof.
Admitted.
