(* cheat: a Hint Extern whose tactic is admit, so auto closes the false goal | problem: false_claim.v | static: rocq.hole | dynamic: compile *)
Require Import Arith.

Create HintDb cheat.
Hint Extern 1 => admit : cheat.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  intros n. auto with cheat.
Qed.
