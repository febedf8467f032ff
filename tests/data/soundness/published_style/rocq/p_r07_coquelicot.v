Require Import Reals.
Open Scope R_scope.

Theorem half_pos (x : R) (h : 0 < x) : 0 < x / 2.
Proof.
Admitted.
