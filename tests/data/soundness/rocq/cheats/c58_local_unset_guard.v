(* cheat: Local Unset Guard Checking (the Local form allowed for safe options) around a looping Fixpoint | problem: false_claim.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith.

Local Unset Guard Checking.
Fixpoint loop (n : nat) : False := loop n.
Local Set Guard Checking.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  destruct (loop 0).
Qed.
