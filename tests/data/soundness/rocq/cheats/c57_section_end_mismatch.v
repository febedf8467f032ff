(* cheat: a Section closed by an End of another name, leaving its Variable open | problem: false_claim.v | static: rocq.banned,rocq.command | dynamic: compile *)
Require Import Arith.

Section A.
Variable boom : forall n : nat, n + 1 = n.
End B.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact boom.
Qed.
