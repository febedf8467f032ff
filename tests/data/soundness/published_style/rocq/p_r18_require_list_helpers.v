Require Import Arith.

Theorem len3 : length (cons 1 (cons 2 (cons 3 nil))) = 3.
Proof.
Admitted.
