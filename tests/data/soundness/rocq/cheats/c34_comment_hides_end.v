(* cheat: unterminated comment swallowing the rest of the file | problem: nat_add.v | static: candidate.parse | dynamic: none *)
Require Import Arith Lia.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  lia.
Qed.
(* Admitted.
