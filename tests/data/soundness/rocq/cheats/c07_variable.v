(* cheat: top-level Variable (a Parameter in disguise) | problem: false_claim.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith.

Variable absurd_v : False.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  case absurd_v.
Qed.
