From mathcomp Require Import all_ssreflect all_algebra.
Import Num.Theory GRing.Theory.
Local Open Scope ring_scope.

Variable R : realDomainType.

Theorem mc_real (x y : R) : 0 <= x ^+ 2 + y ^+ 2.
Proof. Admitted.
