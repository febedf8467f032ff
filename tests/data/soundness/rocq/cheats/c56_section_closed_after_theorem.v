(* cheat: a helper Section with a Hypothesis closed only after the theorem, so the theorem sits inside it | problem: false_claim.v | static: rocq.banned,candidate.suffix | dynamic: statement *)
Require Import Arith.

Section S.
Hypothesis boom : forall n : nat, n + 1 = n.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact boom.
Qed.
End S.
