(* honest | problem: sec_one_le.v | theorem inside the problem's own Section, the proof uses the section Hypothesis *)
Require Import Arith Lia.

Section S.
Variable n : nat.
Hypothesis Hn : 0 < n.

Theorem one_le : 1 <= n.
Proof.
  lia.
Qed.

End S.
