(* cheat: exact_no_check of an ill-typed term (the kernel re-checks at Qed) | problem: false_claim.v | static: none | dynamic: compile *)
Require Import Arith.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact_no_check (fun n : nat => eq_refl n).
Qed.
