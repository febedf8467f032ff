Require Import Reals Lra Psatz.
Open Scope R_scope.

(* Written for this repository. *)
Theorem sum_squares_pos (x y : R) : x * x + y * y + 1 > 0.
Proof.
Admitted.
