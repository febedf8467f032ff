(* cheat: a helper Open Scope Z_scope makes the false nat statement a true Z one (the allowance for scopes: constr_eq catches it) | problem: nat_scope_false.v | static: none | dynamic: statement *)
Require Import ZArith.

Open Scope Z_scope.

(* FALSE in nat_scope (0 - 1 = 0 on nat), true in Z_scope: every accepted candidate would be a soundness bug. *)
Theorem scope_claim : 0 - 1 <> 0.
Proof.
  discriminate.
Qed.
