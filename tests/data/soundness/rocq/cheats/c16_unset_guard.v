(* cheat: Unset Guard Checking with a non-terminating Fixpoint | problem: false_claim.v | static: rocq.banned,rocq.command | dynamic: axioms *)
Require Import Arith.

Unset Guard Checking.
Fixpoint loop (n : nat) : False := loop n.
Set Guard Checking.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  destruct (loop 0).
Qed.
