(* cheat: an axiom in a Module named like a whitelisted axiom's module | problem: false_claim.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith.

Module ClassicalDedekindReals.
Axiom sig_forall_dec : forall n : nat, n + 1 = n.
End ClassicalDedekindReals.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact ClassicalDedekindReals.sig_forall_dec.
Qed.
