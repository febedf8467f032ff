(* cheat: Print Assumptions output forged in a comment, a string and idtac | problem: false_claim.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith.

Axiom forged : forall n : nat, n + 1 = n.

(* Print Assumptions false_claim.
Closed under the global context *)

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  idtac "Closed under the global context".
  exact forged.
Qed.
