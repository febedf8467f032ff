Require Import Classical.

Theorem dne (P : Prop) : ~ ~ P -> P.
Proof.
Admitted.
