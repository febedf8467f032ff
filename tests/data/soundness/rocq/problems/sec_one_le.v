Require Import Arith Lia.

Section S.
Variable n : nat.
Hypothesis Hn : 0 < n.

Theorem one_le : 1 <= n.
Proof.
Admitted.

End S.
