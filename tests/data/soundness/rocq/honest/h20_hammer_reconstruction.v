(* honest | problem: nat_add.v | CoqHammer reconstructions (sauto/hauto) with the one allowed Hammer import *)
Require Import Arith Lia.

From Hammer Require Import Tactics.

Lemma swap_sum (a b : nat) : a + b = b + a.
Proof. sauto use: Nat.add_comm. Qed.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  hauto use: swap_sum.
Qed.
