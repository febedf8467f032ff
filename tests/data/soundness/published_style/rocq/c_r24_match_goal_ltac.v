Require Import Arith Lia.

Ltac break_and :=
  repeat match goal with
  | [ H : _ /\ _ |- _ ] => destruct H
  | [ |- _ /\ _ ] => split
  end.

Theorem and_comm' (P Q : Prop) : P /\ Q -> Q /\ P.
Proof.
  intros H. break_and; assumption.
Qed.
