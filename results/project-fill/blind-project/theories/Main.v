(** * Main: putting the pieces together *)

From Coq Require Import Arith Lia List.
From Blind Require Import Defs Lists Arith2.
Import ListNotations.

(* 2 · Σ_{i ≤ n} i = n (n + 1) *)
Lemma sumlist_range_formula : forall n, 2 * sumlist (range n) = n * S n.
Proof.
Admitted.

Lemma iter_double : forall n x, iter double n x = 2 ^ n * x.
Proof.
  intros n x.
Admitted.

Module Spec.
  Section EvenList.
    Variable l : list nat.
    Hypothesis Hl : forall x, In x l -> ev x.

    Lemma ev_sumlist : ev (sumlist l).
    Proof using Hl.
    Admitted.

    Lemma ev_sumlist_rev : ev (sumlist (my_rev l)).
    Proof using Hl.
    Admitted.
  End EvenList.
End Spec.

Theorem main_theorem : forall n, Parity.evenb (2 * sumlist (range n)) = true.
Proof.
  intros n.
Admitted.
