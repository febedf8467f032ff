(* cheat: Print Assumptions of a different, closed theorem after a proof that uses an axiom | problem: false_claim.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith.

Axiom boom : forall n : nat, n + 1 = n.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact boom.
Qed.

Print Assumptions Nat.add_comm.
