(* cheat: extra hypothesis that gives the goal away | problem: le_trans3.v | static: candidate.statement | dynamic: statement *)
Require Import Arith Lia.

Theorem le_trans3 (a b c : nat) (h1 : a <= b) (h2 : b <= c) (h3 : a <= c) : a <= c.
Proof. exact h3. Qed.
