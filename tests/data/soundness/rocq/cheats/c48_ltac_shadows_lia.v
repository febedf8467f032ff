(* cheat: an Ltac helper named lia that only tries reflexivity | problem: false_claim.v | static: none | dynamic: compile *)
Require Import Arith.

Ltac lia := intros; try reflexivity.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  lia.
Qed.
