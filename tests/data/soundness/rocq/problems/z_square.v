Require Import ZArith.
Open Scope Z_scope.

Theorem z_square (a b : Z) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2.
Proof.
Admitted.
