(* cheat: a string inside a comment spans an Axiom (both lexers keep it a comment) | problem: false_claim.v | static: none | dynamic: compile *)
Require Import Arith.

(* " *) Axiom boom : forall n : nat, n + 1 = n. (* " *)

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact boom.
Qed.
