From mathcomp Require Import all_ssreflect.

Theorem mc_addn0 (n m : nat) : n + m + 0 = m + n.
Proof.
Admitted.
