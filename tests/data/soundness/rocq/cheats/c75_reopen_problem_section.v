(* cheat: the problem's Section closed among the helpers and reopened with a stronger hypothesis | problem: sec_one_le.v | static: rocq.banned,rocq.command | dynamic: statement *)
Require Import Arith Lia.

Section S.
Variable n : nat.
Hypothesis Hn : 0 < n.

End S.
Section S.
Variable n : nat.
Hypothesis Hn : 5 < n.

Theorem one_le : 1 <= n.
Proof.
  lia.
Qed.

End S.
