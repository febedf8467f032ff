(* cheat: a non-positive helper Inductive (allowed in the final run) after Local Unset Positivity Checking | problem: false_claim.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith.

Local Unset Positivity Checking.
Inductive T := c : (T -> False) -> T.
Definition h (t : T) : False := match t with c f => f t end.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  destruct (h (c h)).
Qed.
