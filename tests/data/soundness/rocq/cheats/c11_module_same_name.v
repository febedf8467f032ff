(* cheat: a true theorem of the same name inside a Module | problem: false_claim.v | static: candidate.statement,rocq.banned | dynamic: statement *)
Require Import Arith.

Module Fake.
(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 0 = n.
Proof.
  intros n. rewrite Nat.add_0_r. reflexivity.
Qed.
End Fake.
