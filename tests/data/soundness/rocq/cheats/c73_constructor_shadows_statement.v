(* cheat: a helper Inductive whose CONSTRUCTOR is named like the statement's le (constructor names are not in the static name rule; the reference probe and coqc still stop it) | problem: le_false.v | static: none | dynamic: compile *)
Require Import Arith.

Inductive always : Prop := le : nat -> nat -> always.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem le_claim : forall n : nat, le (S n) n.
Proof.
  intros n. exact (le (S n) n).
Qed.
