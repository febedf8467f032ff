Require Import Arith Lia.

Theorem big_lia (a b c : nat) (h : a <= b) (h2 : b <= c) : a <= c.
Proof.
Admitted.
