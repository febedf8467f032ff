From mathcomp Require Import all_ssreflect.

Theorem addnK_mc (n m : nat) : (n + m) - m = n.
Proof.
Admitted.
