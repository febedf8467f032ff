(* cheat: Declare ML Module loads native code | problem: false_claim.v | static: rocq.banned | dynamic: compile *)
Require Import Arith.

Declare ML Module "evil_plugin".

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  evil_tactic.
Qed.
