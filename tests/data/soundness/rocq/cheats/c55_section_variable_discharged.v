(* cheat: a closed Section's Variable used by a helper the false proof relies on (the allowance for sections: End discharges it) | problem: false_claim.v | static: none | dynamic: compile *)
Require Import Arith.

Section S.
Variable boom : forall n : nat, n + 1 = n.
Lemma helper : forall n : nat, n + 1 = n.
Proof. exact boom. Qed.
End S.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact helper.
Qed.
