Require Import Reals.

Theorem sum_sq (x y : R) : (0 <= x * x + y * y)%R.
Proof.
Admitted.
