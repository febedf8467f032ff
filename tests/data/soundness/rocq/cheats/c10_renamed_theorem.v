(* cheat: a different theorem name | problem: false_claim.v | static: candidate.parse | dynamic: statement *)
Require Import Arith.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim' : forall n : nat, n + 0 = n.
Proof.
  intros n. rewrite Nat.add_0_r. reflexivity.
Qed.
