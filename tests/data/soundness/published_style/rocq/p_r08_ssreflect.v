From mathcomp Require Import all_ssreflect.

Theorem addnK' (n m : nat) : (n + m) - m = n.
Proof.
Admitted.
