(** * Defs: basic definitions of the Blind development *)

From Coq Require Import Arith Lia.

(** Triangular numbers: [sum_to n = 0 + 1 + ... + n]. *)
Fixpoint sum_to (n : nat) : nat :=
  match n with
  | 0 => 0
  | S k => n + sum_to k
  end.

Definition double (n : nat) : nat := n + n.

Fixpoint half (n : nat) : nat :=
  match n with
  | 0 => 0
  | 1 => 0
  | S (S k) => S (half k)
  end.

(** Evenness as an inductive predicate. *)
Inductive ev : nat -> Prop :=
  | ev_0 : ev 0
  | ev_SS : forall n, ev n -> ev (S (S n)).

#[export] Hint Constructors ev : core.

(** Divisibility: d ∣ n  iff  n = k · d for some k (written [d %| n]). *)
Definition dvd (d n : nat) : Prop := exists k, n = k * d.

Notation "d %| n" := (dvd d n) (at level 70, no associativity).

Lemma double_plus : forall n, double n = 2 * n.
Proof.
Admitted.

Lemma sum_to_formula : forall n, 2 * sum_to n = n * S n.
Proof.
Admitted.

Lemma half_double : forall n, half (double n) = n.
Proof.
Admitted.

Lemma ev_double : forall n, ev (double n).
Proof.
Admitted.

#[export] Hint Resolve ev_double : core.

Lemma ev_SS_inv : forall n, ev (S (S n)) -> ev n.
Proof.
  intros n H. inversion H. assumption.
Qed.

Lemma ev_plus : forall n m, ev n -> ev m -> ev (n + m).
Proof.
  intros n m Hn Hm.
Admitted.

Section DvdFacts.
  Variable d : nat.

  Lemma dvd_0 : d %| 0.
  Proof. exists 0. reflexivity. Qed.

  Lemma dvd_add : forall a b, d %| a -> d %| b -> d %| a + b.
  Proof.
    intros a b [k Hk] [j Hj].
  Admitted.
End DvdFacts.
