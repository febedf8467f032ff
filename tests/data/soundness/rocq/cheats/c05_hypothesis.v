(* cheat: Hypothesis added at top level | problem: false_claim.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith.

Hypothesis oops : forall n : nat, n + 1 = n.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact oops.
Qed.
