Require Import Reals Lra.
Open Scope R_scope.

Theorem r_div (x y : R) (hx : x <> 0) (h : y = 2 * x) : y / x = 2.
Proof.
Admitted.
