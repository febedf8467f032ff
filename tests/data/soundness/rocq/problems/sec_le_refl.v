Require Import Arith Lia.

Section S.
Variable n : nat.
Hypothesis Hn : 0 < n.

Theorem le_refl_n : n <= n.
Proof.
Admitted.

End S.
