Require Import Coq.Arith.Arith.

Theorem mul_comm' (a b : nat) : a * b = b * a.
Proof.
Admitted.
