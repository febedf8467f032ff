Require Import Arith.

Theorem add00 (n : nat) : (n + 0) + 0 = n.
Proof.
Admitted.
