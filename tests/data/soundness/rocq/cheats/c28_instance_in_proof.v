(* cheat: vernacular commands inside the proof body | problem: false_claim.v | static: rocq.command,rocq.banned | dynamic: axioms *)
Require Import Arith.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  Axiom inner : forall n : nat, n + 1 = n.
  exact inner.
Qed.
