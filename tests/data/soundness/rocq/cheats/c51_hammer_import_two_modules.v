(* cheat: the allowed Hammer import widened to a second module (the ATP-calling plugin smuggled in beside Tactics) | problem: false_claim.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith.

From Hammer Require Import Tactics Plugin.Hammer.
Axiom boom : forall n : nat, n + 1 = n.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  sauto use: boom.
Qed.
