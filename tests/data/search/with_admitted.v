Require Import Arith.

Theorem sample_admitted : forall n : nat,
  n + 0 = n.
Proof.
Admitted.
