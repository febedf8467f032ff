Require Import Arith Lia.

Section Aux.
Variable k : nat.
Hypothesis Hk : 0 < k.

Lemma mul_pos_le (n : nat) : n <= n * k.
Proof. nia. Qed.
End Aux.

Theorem mul_le (n m : nat) (h : 0 < m) : n <= n * m.
Proof.
  apply mul_pos_le; exact h.
Qed.
