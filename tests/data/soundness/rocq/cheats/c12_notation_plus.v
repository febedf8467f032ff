(* cheat: Local Notation redefines + as * in R_scope | problem: real_sq.v | static: rocq.banned | dynamic: statement *)
Require Import Reals Lra Psatz.
Open Scope R_scope.

Definition sq (x : R) := x * x.

Local Notation "a + b" := (Rmult a b) : R_scope.

Theorem real_sq (x y : R) : sq x + y * y >= 0.
Proof.
  unfold sq. nra.
Qed.
