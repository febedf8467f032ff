(* cheat: Redirect (writes a file) after the proof, beside an allowed Print Assumptions | problem: nat_add.v | static: candidate.suffix | dynamic: accepted *)
Require Import Arith Lia.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  lia.
Qed.

Print Assumptions nat_add.
Redirect "Query" Print Assumptions nat_add.
