Require Import Arith.

Example two_plus : 1 + 1 = 2.
Proof. reflexivity. Qed.

Fact zero_le (n : nat) : 0 <= n.
Proof. apply Nat.le_0_l. Qed.

Theorem zero_le_succ (n : nat) : 0 <= S n.
Proof.
  apply zero_le.
Qed.
