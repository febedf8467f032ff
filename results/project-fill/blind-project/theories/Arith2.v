(** * Arith2: sections, modules and parity *)

From Coq Require Import Arith Lia List.
From Blind Require Import Defs Lists.

Section Monotone.
  Variable f : nat -> nat.
  Hypothesis f_step : forall n, f n <= f (S n).

  (* n ≤ m → f n ≤ f m *)
  Lemma f_mono_le : forall n m, n <= m -> f n <= f m.
  Proof using f_step.
  Admitted.
End Monotone.

Section Iter.
  Context {A : Type} (g : A -> A).

  Fixpoint iter (n : nat) (x : A) : A :=
    match n with
    | 0 => x
    | S k => g (iter k x)
    end.

  Lemma iter_add : forall n m x, iter (n + m) x = iter n (iter m x).
  Proof.
  Admitted.
End Iter.

Module Parity.
  Fixpoint evenb (n : nat) : bool :=
    match n with
    | 0 => true
    | 1 => false
    | S (S k) => evenb k
    end.

  Lemma ev_evenb : forall n, ev n -> evenb n = true.
  Proof.
    intros n H. induction H; simpl; auto.
  Qed.

  Lemma evenb_ev : forall n, evenb n = true -> ev n.
  Proof.
    intros n.
  Admitted.

  Module Double.
    Lemma evenb_double : forall n, evenb (double n) = true.
    Proof.
    Admitted.
  End Double.
End Parity.

#[export] Hint Resolve Parity.ev_evenb : core.

Lemma ev_n_Sn : forall n, ev (n * S n).
Proof.
Admitted.
