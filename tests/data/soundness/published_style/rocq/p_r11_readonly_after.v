Require Import Arith.

Theorem two_plus_two : 2 + 2 = 4.
Proof.
Admitted.
