Require Import Arith Lia.

Theorem lia_succ (a b : nat) : a < b -> a + 1 <= b.
Proof.
Admitted.
