(* cheat: an Axiom and a re-statement hidden after allowed read-only queries | problem: false_claim.v | static: candidate.suffix,rocq.banned | dynamic: compile *)
Require Import Arith.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  intros n.
Qed.

Check false_claim.
Axiom false_claim_ax : forall n : nat, n + 1 = n.
Print Assumptions false_claim_ax.
