"""CoqHammer in the verdict: exactly ``From Hammer Require Import Tactics.`` among the helpers.

The reason for the rule (the module adds no axiom) is checked against the real library in the
``rocq`` tier; the cheats that try to abuse the import live in tests/data/soundness/rocq/cheats/
(c49-c54) and run through test_adversarial.py.
"""

from __future__ import annotations

import subprocess

import pytest

from lean_tools.soundness.rocq_screens import (
    HAMMER_TACTICS_IMPORT,
    is_hammer_tactics_import,
    screen_rocq,
)

LEMMA = "Lemma aux (a b : nat) : a + b = b + a.\nProof. sauto use: Nat.add_comm. Qed.\n"


def test_exact_import_passes_among_helpers():
    for spelling in (HAMMER_TACTICS_IMPORT, "From  Hammer\n  Require Import   Tactics ."[:-2] + "."):
        assert is_hammer_tactics_import(spelling)
        assert screen_rocq(spelling + "\n" + LEMMA, role="helpers") == ()


@pytest.mark.parametrize(
    "sentence",
    [
        "From Hammer Require Import Hammer.",
        "From Hammer Require Export Tactics.",
        "From Hammer Require Import Tactics Hammer.",
        "From Hammer Require Import Tactics.Reflect.",
        "From Hammer Require Import Plugin.Hammer.",
        "Require Import Hammer.Tactics.Tactics.",
        "From Hammer Require Tactics.",
    ],
)
def test_other_hammer_sentences_rejected(sentence):
    assert not is_hammer_tactics_import(sentence)
    rules = {f.rule for f in screen_rocq(sentence + "\n" + LEMMA, role="helpers")}
    assert rules & {"rocq.banned", "rocq.command"}, rules


@pytest.mark.parametrize("tactic", ["hammer.", "predict 16.", "hammer_hook.", "now hammer."])
def test_atp_calling_tactics_rejected_in_proofs(tactic):
    rules = {f.rule for f in screen_rocq("intros.\n" + tactic + "\n")}
    assert "rocq.hammer" in rules


def test_import_refused_inside_a_proof():
    rules = {f.rule for f in screen_rocq(HAMMER_TACTICS_IMPORT + "\nsauto.\n")}
    assert "rocq.command" in rules


@pytest.mark.rocq
def test_tactics_module_adds_no_axiom(tmp_path):
    """The reason written beside the rule: proofs by the reconstruction tactics are closed."""
    src = (
        HAMMER_TACTICS_IMPORT
        + "\nLemma t1 (n m : nat) : n + m = m + n.\nProof. sauto use: PeanoNat.Nat.add_comm. Qed.\n"
        "Lemma t2 (A B : Prop) : A /\\ B -> B /\\ A.\nProof. hauto. Qed.\n"
        "Lemma t3 (l : list nat) : length (l ++ nil) = length l.\nProof. induction l; srun eauto. Qed.\n"
        "Lemma t4 (P Q : Prop) : (P -> Q) -> ~Q -> ~P.\nProof. qauto. Qed.\n"
        "Print Assumptions t1.\nPrint Assumptions t2.\nPrint Assumptions t3.\nPrint Assumptions t4.\n"
    )
    (tmp_path / "T.v").write_text(src, encoding="utf-8")
    out = subprocess.run(["coqc", "T.v"], check=False, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count("Closed under the global context") == 4, out.stdout
