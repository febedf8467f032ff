(* cheat: a Module named Candidate holding a Hypothesis named like the problem's | problem: param_k.v | static: rocq.banned | dynamic: axioms *)
Require Import Arith Lia.

Variable k : nat.
Hypothesis hk : 3 <= k.

Module Candidate.
Hypothesis hk : 100 <= k.
End Candidate.

Theorem param_k : 2 < k * k.
Proof.
  pose proof Candidate.hk. nia.
Qed.
