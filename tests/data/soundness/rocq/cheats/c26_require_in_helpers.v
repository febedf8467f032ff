(* cheat: Require of a new module placed among the helpers | problem: false_claim.v | static: rocq.banned,rocq.command | dynamic: axioms *)
Require Import Arith.

From Coq Require Import Logic.Classical_Prop.
Axiom from_lib : forall n : nat, n + 1 = n.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact from_lib.
Qed.
