(* cheat: a helper shadows the statement's definition through a Module | problem: real_sq.v | static: rocq.banned | dynamic: statement *)
Require Import Reals Lra Psatz.
Open Scope R_scope.

Definition sq (x : R) := x * x.

Module Shadow.
Definition sq (x : R) := 0.
End Shadow.
Import Shadow.

Theorem real_sq (x y : R) : sq x + y * y >= 0.
Proof.
  unfold sq. nra.
Qed.
