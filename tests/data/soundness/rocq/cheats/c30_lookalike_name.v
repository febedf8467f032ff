(* cheat: admitted helper whose name is a Cyrillic look-alike of the theorem | problem: false_claim.v | static: lookalike,rocq.hole | dynamic: axioms *)
Require Import Arith.

Lemma fаlse_claim : forall n : nat, n + 1 = n.
Proof.
Admitted.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact fаlse_claim.
Qed.
