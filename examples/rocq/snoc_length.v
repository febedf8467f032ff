Require Import List.
Import ListNotations.
(* Written for this repository. *)
Fixpoint snoc {A : Type} (l : list A) (x : A) : list A :=
  match l with
  | [] => [x]
  | y :: t => y :: snoc t x
  end.

Theorem snoc_length {A : Type} (l : list A) (x : A) : length (snoc l x) = S (length l).
Proof.
Admitted.
