Require Import Arith Lia.

Section P.
Variable c : nat.
Hypothesis Hc : c > 0.

Lemma c_pos : 0 < c.
Proof using Hc. exact Hc. Qed.

Lemma c_ge : 1 <= c.
Proof with auto.
  pose proof c_pos...
Qed.
End P.

Theorem one_le_succ (n : nat) : 1 <= S n.
Proof.
  apply c_ge. lia.
Qed.
