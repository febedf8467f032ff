(* honest | problem: dne.v | classical logic axiom from the problem's header *)
Require Import Classical.

Theorem dne (P : Prop) : ~ ~ P -> P.
Proof.
  intro h. destruct (classic P) as [p | np].
  - exact p.
  - exfalso. exact (h np).
Qed.
