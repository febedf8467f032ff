(* cheat: proof by an Admitted lemma of the problem itself (passes the screens) | problem: two_theorems.v | theorem: two_theorems | static: none | dynamic: axioms *)
Require Import Arith.

(* The problem's own unproved lemma: using it must not count as a proof. *)
Theorem lemma_one : forall n : nat, n + 1 = n.
Proof.
Admitted.

Theorem two_theorems : forall n : nat, n + 1 = n.
Proof.
  exact lemma_one.
Qed.
