(* cheat: an Ltac2 Notation among the helpers (only Ltac2 value definitions are allowed) | problem: sum_le.v | static: rocq.banned,rocq.command | style: ltac2 | dynamic: none *)
Require Import Arith Lia.

From Ltac2 Require Import Ltac2.

Ltac2 Notation "finish" := ltac1:(intros; lia).

(* Twice a sum bounds the sum of the doubles. *)
Theorem sum_le (a b c : nat) (h : a <= b) : a + c <= b + c.
Proof.
  finish.
Qed.
