(* cheat: bypass_check attribute for a non-positive inductive | problem: false_claim.v | static: rocq.attribute,rocq.banned | dynamic: axioms *)
Require Import Arith.

#[bypass_check(positivity)] Inductive T := c : (T -> False) -> T.
Definition h (t : T) : False := match t with c f => f t end.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  destruct (h (c h)).
Qed.
