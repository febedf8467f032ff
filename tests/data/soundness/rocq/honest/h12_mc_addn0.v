(* honest | problem: mc_addn0.v | MathComp ssreflect *)
From mathcomp Require Import all_ssreflect.

Theorem mc_addn0 (n m : nat) : n + m + 0 = m + n.
Proof.
  by rewrite addn0 addnC.
Qed.
