(* cheat: Let outside a section, Admitted | problem: false_claim.v | static: rocq.hole,rocq.command | dynamic: axioms *)
Require Import Arith.

Let boom : forall n : nat, n + 1 = n.
Proof. intros n. Fail lia. Admitted.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact boom.
Qed.
