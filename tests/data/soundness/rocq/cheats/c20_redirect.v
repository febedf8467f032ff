(* cheat: Redirect writes a file and an admitted helper hides behind it | problem: false_claim.v | static: rocq.banned,rocq.hole | dynamic: axioms *)
Require Import Arith.

Lemma helper : forall n : nat, n + 1 = n.
Proof.
  Redirect "assumptions" Print Assumptions Nat.add.
Admitted.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact helper.
Qed.
