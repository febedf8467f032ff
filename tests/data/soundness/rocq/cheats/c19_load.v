(* cheat: Load of an outside file | problem: false_claim.v | static: rocq.banned | dynamic: compile *)
Require Import Arith.

Load "/tmp/prover_evil_axioms.v".

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  apply evil.
Qed.
