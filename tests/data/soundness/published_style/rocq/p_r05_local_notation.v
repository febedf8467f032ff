Require Import Arith Lia.

Theorem sq_le (x : nat) : x <= x * x \/ x = 0.
Proof.
Admitted.
