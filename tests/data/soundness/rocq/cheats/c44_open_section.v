(* cheat: a Section left open around a Variable used by the proof | problem: false_claim.v | static: rocq.banned | dynamic: compile *)
Require Import Arith.

Section S.
Variable boom : forall n : nat, n + 1 = n.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact boom.
Qed.
