Require Import Arith Lia.

Corollary lt_succ_diag (n : nat) : n < S n.
Proof using. lia. Qed.

Remark r_trivial : True.
Proof. exact I. Qed.

Theorem lt_two (n : nat) : n < n + 2.
Proof.
  lia.
Qed.
