Require Import Arith.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem le_claim : forall n : nat, le (S n) n.
Proof.
Admitted.
