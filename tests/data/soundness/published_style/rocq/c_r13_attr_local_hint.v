Require Import Arith.

Lemma le_S_n' (n : nat) : n <= S n.
Proof. auto. Qed.

#[local] Hint Resolve le_S_n' : core.

Theorem le_succ (k : nat) : k <= S k.
Proof.
  auto.
Qed.
