Require Import Arith Lia.

Check Nat.add_comm.
Search (_ + _ = _ + _).

Lemma my_comm (a b : nat) : a + b = b + a.
Proof. apply Nat.add_comm. Qed.
Print Assumptions my_comm.

Theorem comm2 (a b : nat) : a + b = b + a.
Proof.
  apply my_comm.
Qed.
