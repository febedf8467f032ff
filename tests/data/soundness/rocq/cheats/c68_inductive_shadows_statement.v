(* cheat: a helper Inductive (allowed in the final run) named like the statement's le, with a constructor that proves anything | problem: le_false.v | static: candidate.shadowing | dynamic: statement *)
Require Import Arith.

Inductive le : nat -> nat -> Prop := le_any (a b : nat) : le a b.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem le_claim : forall n : nat, le (S n) n.
Proof.
  intros n. exact (le_any _ _).
Qed.
