(* cheat: Qed with goals left open (passes the screens) | problem: false_claim.v | static: none | dynamic: compile *)
Require Import Arith.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  intros n.
Qed.
