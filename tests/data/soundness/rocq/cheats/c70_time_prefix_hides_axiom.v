(* cheat: the Time prefix (allowed before tactics) put before a command inside the proof | problem: false_claim.v | static: rocq.command,rocq.banned | dynamic: axioms *)
Require Import Arith.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  Time Axiom boom : forall n : nat, n + 1 = n.
  exact boom.
Qed.
