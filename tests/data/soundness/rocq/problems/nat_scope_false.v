Require Import ZArith.

(* FALSE in nat_scope (0 - 1 = 0 on nat), true in Z_scope: every accepted candidate would be a soundness bug. *)
Theorem scope_claim : 0 - 1 <> 0.
Proof.
Admitted.
