Require Import Arith Lia.

Variable k : nat.
Hypothesis hk : 3 <= k.

Theorem param_k : 2 < k * k.
Proof.
Admitted.
