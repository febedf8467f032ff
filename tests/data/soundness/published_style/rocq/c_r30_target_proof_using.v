Require Import Arith Lia.


Theorem t30 (n : nat) : n <= n * n \/ n = 0.
Proof using.
  destruct n; [right; reflexivity | left; nia].
Qed.
