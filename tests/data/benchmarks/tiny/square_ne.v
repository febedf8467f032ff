Require Import Arith.

Theorem square_ne (n : nat) : n * n <> 199.
Proof.
Admitted.
