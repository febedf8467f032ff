(* honest | problem: le_trans3.v | Proof with + the `...` terminator (split as its own sentence) *)
Require Import Arith Lia.

Theorem le_trans3 (a b c : nat) (h1 : a <= b) (h2 : b <= c) : a <= c.
Proof with lia.
  idtac...
Qed.
