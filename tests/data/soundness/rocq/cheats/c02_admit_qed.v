(* cheat: admit then Qed | problem: false_claim.v | static: rocq.hole | dynamic: compile *)
Require Import Arith.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  intros n. admit.
Qed.
