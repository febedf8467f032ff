(* cheat: the locality prefixes allowed on helper declarations put on an Axiom and a Parameter | problem: false_claim.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith.

Local Axiom boom : forall n : nat, n + 1 = n.
#[global] Parameter boom2 : False.

(* A FALSE statement: every accepted candidate would be a soundness bug. *)
Theorem false_claim : forall n : nat, n + 1 = n.
Proof.
  exact boom.
Qed.
