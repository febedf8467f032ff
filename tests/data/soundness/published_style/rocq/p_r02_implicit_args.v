Require Import List.
Import ListNotations.

Theorem rev_nil_app (A : Type) (l : list A) : rev l ++ [] = rev l.
Proof.
Admitted.
