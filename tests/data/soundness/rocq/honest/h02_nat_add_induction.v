(* honest | problem: nat_add.v | induction, with a comment that mentions admit and Axiom *)
Require Import Arith Lia.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  (* no admit here; the word Axiom in a comment is harmless *)
  induction n as [| n IH]; simpl.
  - rewrite Nat.add_0_r. reflexivity.
  - rewrite IH. rewrite Nat.add_succ_r. reflexivity.
Qed.
