Require Import Arith.

Theorem add_comm_nat (a b : nat) : a + b = b + a.
Proof.
Admitted.
