(* honest | problem: param_k.v | uses the problem's own Variable and Hypothesis *)
Require Import Arith Lia.

Variable k : nat.
Hypothesis hk : 3 <= k.

Theorem param_k : 2 < k * k.
Proof.
  pose proof hk. nia.
Qed.
