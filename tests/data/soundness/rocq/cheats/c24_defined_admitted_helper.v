(* cheat: Defined target built on a helper that is itself Admitted | problem: false_claim.v | static: candidate.terminator,rocq.hole | dynamic: axioms *)
Require Import Arith.

Lemma half : forall n : nat, n + 1 = n.
Proof.
Admitted.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact half.
Defined.
