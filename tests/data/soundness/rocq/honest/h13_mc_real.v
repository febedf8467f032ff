(* honest | problem: mc_real.v | MathComp algebra over a realDomainType Variable *)
From mathcomp Require Import all_ssreflect all_algebra.
Import Num.Theory GRing.Theory.
Local Open Scope ring_scope.

Variable R : realDomainType.

Theorem mc_real (x y : R) : 0 <= x ^+ 2 + y ^+ 2.
Proof. by rewrite addr_ge0 // sqr_ge0. Qed.
