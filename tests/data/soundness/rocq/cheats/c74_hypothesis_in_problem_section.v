(* cheat: a Hypothesis added among the helpers inside the problem's own open Section (every section variable now joins the target at End) | problem: sec_le_refl.v | static: rocq.banned | dynamic: statement *)
Require Import Arith Lia.

Section S.
Variable n : nat.
Hypothesis Hn : 0 < n.

Hypothesis boom : forall m : nat, m <= m.

Theorem le_refl_n : n <= n.
Proof.
  apply boom.
Qed.

End S.
