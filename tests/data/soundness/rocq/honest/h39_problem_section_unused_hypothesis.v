(* honest | problem: sec_le_refl.v | theorem inside the problem's own Section; the proof leaves the section Hypothesis unused (rejected before: the Admitted probe is generalised over every section variable) *)
Require Import Arith Lia.

Section S.
Variable n : nat.
Hypothesis Hn : 0 < n.

Theorem le_refl_n : n <= n.
Proof.
  apply le_n.
Qed.

End S.
