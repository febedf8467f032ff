Require Import Arith.

Theorem le_plus (a b : nat) : a <= a + b.
Proof.
Admitted.
