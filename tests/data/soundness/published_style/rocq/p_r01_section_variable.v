Require Import Arith Lia.

Theorem mul_le (n m : nat) (h : 0 < m) : n <= n * m.
Proof.
Admitted.
