Require Import Arith Lia.

Fixpoint sum_to (n : nat) : nat := match n with 0 => 0 | S k => S k + sum_to k end.

Theorem sum_to_twice (n : nat) : 2 * sum_to n = n * (n + 1).
Proof.
Admitted.
