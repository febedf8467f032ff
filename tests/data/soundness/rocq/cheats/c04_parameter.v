(* cheat: Parameter of type False | problem: false_claim.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith.

Parameter magic : False.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  destruct magic.
Qed.
