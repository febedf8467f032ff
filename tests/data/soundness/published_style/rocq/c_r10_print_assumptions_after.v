Require Import Arith Lia.


Theorem add_comm' (n m : nat) : n + m = m + n.
Proof.
  lia.
Qed.

Print Assumptions add_comm'.
