(* cheat: Abort the real theorem and restate an easier one with the same name | problem: false_claim.v | static: candidate.duplicate,candidate.statement | dynamic: statement *)
Require Import Arith.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
Abort.

Theorem false_claim : forall n : nat, n + 1 = S n.
Proof.
  intros n. rewrite Nat.add_1_r. reflexivity.
Qed.
