(** * Lists: list functions built on top of [Defs] *)

From Coq Require Import List Lia.
From Blind Require Import Defs.
Import ListNotations.

Fixpoint sumlist (l : list nat) : nat :=
  match l with
  | [] => 0
  | x :: t => x + sumlist t
  end.

Fixpoint my_rev {A : Type} (l : list A) : list A :=
  match l with
  | [] => []
  | x :: t => my_rev t ++ [x]
  end.

(** [range n = [n; n-1; ...; 1]] *)
Fixpoint range (n : nat) : list nat :=
  match n with
  | 0 => []
  | S k => S k :: range k
  end.

Inductive sorted : list nat -> Prop :=
  | sorted_nil : sorted []
  | sorted_one : forall x, sorted [x]
  | sorted_cons : forall x y l, x <= y -> sorted (y :: l) -> sorted (x :: y :: l).

#[export] Hint Constructors sorted : core.

(* Σ over a concatenation — the sum splits. *)
Lemma sumlist_app : forall l1 l2, sumlist (l1 ++ l2) = sumlist l1 + sumlist l2.
Proof.
Admitted.

Lemma my_rev_app : forall (A : Type) (l1 l2 : list A),
  my_rev (l1 ++ l2) = my_rev l2 ++ my_rev l1.
Proof.
Admitted.

Lemma sumlist_rev : forall l, sumlist (my_rev l) = sumlist l.
Proof.
Admitted.

Lemma sumlist_range : forall n, sumlist (range n) = sum_to n.
Proof.
Admitted.

Section Counting.
  Variable p : nat -> bool.

  Fixpoint count (l : list nat) : nat :=
    match l with
    | [] => 0
    | x :: t => (if p x then 1 else 0) + count t
    end.

  Lemma count_app : forall l1 l2, count (l1 ++ l2) = count l1 + count l2.
  Proof.
    induction l1 as [| x l1 IH]; intros l2; simpl.
    - reflexivity.
    - rewrite IH. lia.
  Qed.

  Lemma count_le_length : forall l, count l <= length l.
  Proof.
  Admitted.
End Counting.

Module SortedFacts.
  Lemma sorted_tail : forall x l, sorted (x :: l) -> sorted l.
  Proof.
    intros x l H. inversion H; subst; auto.
  Qed.

  Lemma sorted_app_one : forall l x,
    sorted l -> (forall y, In y l -> y <= x) -> sorted (l ++ [x]).
  Proof.
    intros l x Hs.
  Admitted.
End SortedFacts.
