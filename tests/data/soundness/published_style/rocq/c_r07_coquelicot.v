Require Import Reals.
Open Scope R_scope.

Require Import Coquelicot.Coquelicot.
Require Import Lra.

Theorem half_pos (x : R) (h : 0 < x) : 0 < x / 2.
Proof.
  lra.
Qed.
