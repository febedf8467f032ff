Require Import Arith Lia.

Theorem and_comm' (P Q : Prop) : P /\ Q -> Q /\ P.
Proof.
Admitted.
