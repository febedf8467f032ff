(* cheat: Conjecture added | problem: false_claim.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith.

Conjecture conj0 : False.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exfalso. exact conj0.
Qed.
