Require Import List.
Import ListNotations.

Set Implicit Arguments.
Unset Strict Implicit.

Fixpoint rev_app (A : Type) (l acc : list A) : list A :=
  match l with [] => acc | x :: t => rev_app t (x :: acc) end.

Lemma rev_app_spec (A : Type) (l acc : list A) : rev_app l acc = rev l ++ acc.
Proof.
  revert acc; induction l as [|x t IH]; intros acc; simpl.
  - reflexivity.
  - rewrite IH, <- app_assoc. reflexivity.
Qed.

Theorem rev_nil_app (A : Type) (l : list A) : rev l ++ [] = rev l.
Proof.
  apply app_nil_r.
Qed.
