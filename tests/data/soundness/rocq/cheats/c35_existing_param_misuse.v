(* cheat: extra Hypothesis next to the problem's own parameters | problem: param_k.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith Lia.

Variable k : nat.
Hypothesis hk : 3 <= k.
Hypothesis big : 100 < k.

Theorem param_k : 2 < k * k.
Proof.
  pose proof big. nia.
Qed.
