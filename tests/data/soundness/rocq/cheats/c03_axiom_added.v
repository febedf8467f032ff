(* cheat: Axiom added before the theorem | problem: false_claim.v | static: rocq.banned,rocq.command | dynamic: axioms *)
Require Import Arith.

Axiom cheat : forall n : nat, n + 1 = n.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact cheat.
Qed.
