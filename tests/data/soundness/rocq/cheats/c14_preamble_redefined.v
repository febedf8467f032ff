(* cheat: the statement's helper definition changed in the preamble | problem: real_sq.v | static: candidate.preamble | dynamic: compile *)
Require Import Reals Lra Psatz.
Open Scope R_scope.

Definition sq (x : R) := 1.

Theorem real_sq (x y : R) : sq x + y * y >= 0.
Proof.
  unfold sq. nra.
Qed.
