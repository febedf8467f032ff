(* cheat: `...` ends a sentence in Coq but not in the old splitter, hiding a Set command in a helper proof | problem: nat_add.v | static: rocq.command | dynamic: accepted *)
Require Import Arith Lia.

Lemma helper : True.
Proof.
  exact I...
Set Definitional UIP.
Qed.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  lia.
Qed.
