(* cheat: vernacular allowed among the final helpers (Hint, Section, Variable) used inside the proof body | problem: false_claim.v | static: rocq.command,rocq.banned | dynamic: compile *)
Require Import Arith.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  Section S.
  Variable boom : forall n : nat, n + 1 = n.
  exact boom.
Qed.
