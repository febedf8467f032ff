Require Import Reals Lra.
Open Scope R_scope.

Theorem sq_plus_one (x : R) : 0 < x * x + 1.
Proof.
Admitted.
