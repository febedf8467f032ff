Require Import Coq.Arith.Arith.

From Coq Require Import Lia.
Require Import Coq.Arith.PeanoNat.

Theorem mul_comm' (a b : nat) : a * b = b * a.
Proof.
  lia.
Qed.
