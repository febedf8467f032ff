(* honest | problem: r_div.v | field over R *)
Require Import Reals Lra.
Open Scope R_scope.

Theorem r_div (x y : R) (hx : x <> 0) (h : y = 2 * x) : y / x = 2.
Proof.
  subst y. field. exact hx.
Qed.
