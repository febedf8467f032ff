(* cheat: the Hammer import spelled with Export and a Require of a non-standard module after it | problem: false_claim.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith.

From Hammer Require Export Tactics.
Require Import Coq.Logic.Classical_Prop.
Axiom boom : forall n : nat, n + 1 = n.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  hauto use: boom.
Qed.
