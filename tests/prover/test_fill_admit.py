"""``admit.`` holes of a Rocq proof and ``prove --allow-require``: finding and filling the holes,
restating the goal at an ``admit.``, where an added ``Require`` goes, and the verdict's defences
against admit-block cheats (static here; the fill and the verdict on real Rocq below)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lean_tools.rocq.holes import after_requires, fill, find_holes, insert_requires, requires_point
from prover.fill_admit import AdmitGoal, Hyp, probe_text, read_probe, statement
from prover.fill_verdict import allowed_require, judge, screen_bodies, split_bodies
from prover.records import HoleResult

ADMITS = """\
(* ∣ non-ASCII before the holes: ∀ x, x ∣ x *)
Require Import Arith Lia.

Lemma top (n : nat) : n + 0 = n.
Proof.
  admit.
Admitted.

Section Sec.
Variable k : nat.
Hypothesis Hk : 2 <= k.

Lemma nested (n : nat) : (n <= n + k /\\ 0 < k) /\\ True.
Proof.
  split.
  - split.
    + admit.
    + { admit. }
  - exact I.
Admitted.
End Sec.
"""


def _fill_all(text: str, scripts: dict[str, str]) -> str:
    for label in reversed(list(scripts)):  # the last first: earlier labels stay as they are
        text = fill(text, next(h for h in find_holes(text) if h.label == label), scripts[label])
    return text


def test_admits_of_an_admitted_proof_are_admit_holes():
    holes = find_holes(ADMITS)
    assert [h.label for h in holes] == ["top#admit1", "nested#admit1", "nested#admit2"]
    assert all(h.kind == "admit" and h.admitted_lemma for h in holes)
    assert ADMITS[holes[2].end_start : holes[2].end_end] == "admit."
    assert ADMITS[holes[2].term_start : holes[2].term_end] == "Admitted."
    # a proof without admit. stays one admitted hole
    (plain,) = find_holes("Lemma a : True.\nProof. idtac.\nAdmitted.\n")
    assert plain.kind == "admitted" and plain.label == "a"


def test_fill_replaces_only_the_admit_sentence_and_ends_the_proof_once_all_are_filled():
    holes = find_holes(ADMITS)
    one = fill(ADMITS, holes[1], "lia.")
    assert "    + { lia. }\n    + { admit. }\n  - exact I.\nAdmitted." in one
    both = _fill_all(ADMITS, {"nested#admit1": "lia.", "nested#admit2": "intros.\nlia."})
    assert "    + { {\n      intros.\n      lia.\n    } }\n  - exact I.\nQed.\nEnd Sec." in both
    # byte for byte outside the replaced sentences and the terminator, the non-ASCII comment included
    assert both.startswith(ADMITS[: holes[1].end_start])
    assert both.endswith(ADMITS[holes[2].term_end :])
    bodies = split_bodies(ADMITS, both, holes[1:])
    assert bodies == ["{ lia. }", "{\n      intros.\n      lia.\n    }"]
    assert screen_bodies(bodies, holes[1:]) == {}
    definition = "Definition d : nat.\nProof. admit.\nAdmitted.\n"
    assert fill(definition, find_holes(definition)[0], "exact 0.").endswith("Proof. { exact 0. }\nDefined.\n")


PROBE_OUT = """\
PROVER-ADMIT-BEGIN
PROVER-ADMIT-HYP k | nat
PROVER-ADMIT-HYP Hk | (2 <= k)
PROVER-ADMIT-HYP n | nat
PROVER-ADMIT-HYP m | nat
PROVER-ADMIT-HYP H | (forall x : nat,
 x | n -> True)
PROVER-ADMIT-DEF m | (n + 1)
PROVER-ADMIT-GOAL (n <= n + k)
PROVER-ADMIT-SEC k | nat
PROVER-ADMIT-SEC Hk | (2 <= k)
PROVER-ADMIT-END
"""


def test_the_probed_goal_is_restated_with_the_contexts_names():
    goal = read_probe(PROBE_OUT)
    assert isinstance(goal, AdmitGoal)
    assert [h.name for h in goal.hyps] == ["k", "Hk", "n", "m", "H"]
    assert goal.hyps[3].body == "(n + 1)" and goal.hyps[4].type == "(forall x : nat, x | n -> True)"
    lemma = statement(goal, "nested_admit1")
    # section variables are in every proof context of the section already: not bound again
    assert lemma == "Lemma nested_admit1 (n : nat) (m : nat := (n + 1)) (H : (forall x : nat, x | n -> True)) :\n  (n <= n + k)."
    changed = goal.model_copy(update={"hyps": (Hyp(name="Hk", type="(3 <= k)"),)})
    assert statement(changed, "x") is None
    evar = goal.model_copy(update={"conclusion": "(n <= ?m)"})
    assert statement(evar, "x") is None
    assert isinstance(read_probe("PROVER-ADMIT-BEGIN\n"), str)
    hole = find_holes(ADMITS)[2]
    probe = probe_text(ADMITS, hole)
    assert probe.startswith(ADMITS[: hole.end_start]) and probe.rstrip().endswith("End Sec.")


def test_an_added_require_goes_after_the_last_top_level_require_before_the_first_hole():
    text = (
        "(* head ∣ *)\nRequire Import Arith.\nModule M.\nRequire Import List.\nEnd M.\n"
        "Lemma a : True.\nProof.\nAdmitted.\nRequire Import Bool.\n"
    )
    point = requires_point(text)
    out = insert_requires(text, ["From Coq Require Import Lia."], point)
    assert out == text.replace("Arith.\n", "Arith.\nFrom Coq Require Import Lia.\n")
    bare = "(* header ∣ *)\n(* more *)\nLemma a : True.\nProof.\nAdmitted.\n"
    out = insert_requires(bare, ["From Coq Require Import Lia."], requires_point(bare))
    assert out == bare.replace("*)\nLemma", "*)\nFrom Coq Require Import Lia.\nLemma")
    alone = "Lemma a : True. Admitted."
    assert insert_requires(alone, ["X."], requires_point(alone)) == "X.\n" + alone


@pytest.mark.parametrize(
    "text", ["(* c *)\nLemma a : True. Admitted.\n", "Lemma a : True. Admitted.\n", "Require Import Arith.\nLemma a : True.\nAdmitted.\n"]
)
def test_lines_added_one_at_a_time_read_as_added_at_once(text):
    point = requires_point(text)
    one = insert_requires(text, ["From Coq Require Import Lia."], point)
    two = insert_requires(one, ["From Hammer Require Import Tactics."], after_requires(point, ["From Coq Require Import Lia."]))
    assert two == insert_requires(text, ["From Coq Require Import Lia.", "From Hammer Require Import Tactics."], point)
    assert two.endswith(
        "From Coq Require Import Lia.\nFrom Hammer Require Import Tactics.\nLemma a : True" + text.split("Lemma a : True", 1)[1]
    )


def test_only_the_searchs_own_libraries_may_be_added():
    assert allowed_require("From Coq Require Import Lia.")
    assert allowed_require("From Coq Require Import Lia Lra Psatz.")
    assert allowed_require("From Hammer Require Import Tactics.")
    foreign = ("From Coq Require Import Reals.", "Require Import Lia.", "From Coq Require Import Lia. Axiom f : False.")
    for line in (*foreign, "From P Require Import Lia."):
        assert not allowed_require(line), line


@pytest.mark.parametrize(
    ("replacement", "why"),
    [
        ("all: lia.", "not replaced by one { ... } block"),  # unbraced: could act on the other goals
        ("{ lia. } }", "changed"),  # an extra } ends the bullet's focus
        ("{ lia. }\nQed.\nLemma extra : True. {", "changed"),
        ("{ lia.", "not replaced by one { ... } block"),
    ],
)
def test_an_admit_replacement_that_is_not_one_block_is_rejected(replacement, why):
    holes = find_holes(ADMITS)
    good = _fill_all(ADMITS, {"nested#admit1": "lia.", "nested#admit2": "lia."})
    at = good.index("{ lia. }")
    cheat = good[:at] + replacement + good[at + len("{ lia. }") :]
    assert why in split_bodies(ADMITS, cheat, holes[1:])


@pytest.mark.parametrize("script", ["admit.", "lia. Qed.", "lia. Admitted.", "Abort.", "lia. Defined.", "Unset Guard Checking. lia."])
def test_an_admit_block_that_admits_or_ends_its_proof_is_rejected(script):
    holes = find_holes(ADMITS)
    bad = screen_bodies(["{ " + script + " }"], [holes[0]])
    assert "top#admit1" in bad, script


def test_admit_fills_must_cover_the_proof_and_end_it():
    holes = find_holes(ADMITS)
    one = fill(ADMITS, holes[1], "lia.")
    assert "not nested#admit2" in split_bodies(ADMITS, one, holes[1:2])
    both = _fill_all(ADMITS, {"nested#admit1": "lia.", "nested#admit2": "lia."})
    kept = both.replace("  - exact I.\nQed.", "  - exact I.\nAdmitted.")
    assert "does not end with Qed." in split_bodies(ADMITS, kept, holes[1:])


def test_the_verdict_rejects_an_added_line_it_was_not_told_of_or_a_foreign_library():
    holes = find_holes(ADMITS)
    results = [HoleResult(name=h.label, kind="admit", status="proved" if h.name == "top" else "not_proved") for h in holes]
    filled = fill(ADMITS, holes[0], "lia.")
    sneaked = filled.replace("Lia.\n", "Lia.\nFrom Coq Require Import Reals.\n")
    report = judge(ADMITS, sneaked, results, None)
    assert report.holes[0].status == "not_proved" and "changed" in report.holes[0].reason and report.text == ADMITS
    report = judge(ADMITS, sneaked, results, None, ("From Coq Require Import Reals.",))
    assert "loads a library the search does not" in report.holes[0].reason and report.requires_added == ()


# --- real Rocq ----------------------------------------------------------------------------------


def _fill(tmp_path: Path, text: str, *, hole_timeout: float = 25, timeout: float = 150, allow_require: bool = False):
    from lean_tools.rocq.project import find_project
    from prover.config import ProverConfig
    from prover.fill import FillRequest, fill_file

    path = tmp_path / "A.v"
    path.write_text(text, encoding="utf-8")
    cfg = ProverConfig()
    budget = cfg.budget.model_copy(update={"wall_s": timeout})
    cfg = cfg.model_copy(update={"budget": budget, "prover": cfg.prover.model_copy(update={"cache_path": None})})
    req = FillRequest(
        path=str(path), text=text, project=find_project(path), config=cfg, hole_timeout_s=hole_timeout, allow_require=allow_require
    )
    return fill_file(req)


@pytest.mark.rocq
def test_admits_at_top_level_in_bullets_braces_and_a_section_are_filled(tmp_path):
    report = _fill(tmp_path, ADMITS)
    assert {h.name: h.status for h in report.holes} == dict.fromkeys(["top#admit1", "nested#admit1", "nested#admit2"], "proved"), report
    assert "admit" not in report.text and "Admitted" not in report.text
    bodies = split_bodies(ADMITS, report.text, find_holes(ADMITS))
    assert isinstance(bodies, list) and all(b.startswith("{") for b in bodies)
    assert report.text.startswith(ADMITS[: find_holes(ADMITS)[0].end_start])  # the non-ASCII comment untouched
    assert report.requires_added == ()


@pytest.mark.rocq
def test_a_proof_with_an_admit_left_open_is_left_as_it_was(tmp_path):
    text = "Require Import Lia.\nLemma half (n : nat) : n + 0 = n /\\ 1 = 2.\nProof.\n  split.\n  - admit.\n  - admit.\nAdmitted.\n"
    report = _fill(tmp_path, text, hole_timeout=6, timeout=30)
    by = {h.name: h for h in report.holes}
    assert by["half#admit2"].status == "not_proved"
    assert by["half#admit1"].status == "not_proved" and "half#admit2 not proved" in by["half#admit1"].reason
    assert by["half#admit1"].proof  # the script found is reported, not written
    assert report.text == text


NO_LIA = """\
(* ∣ a file that does not load Lia *)
Require Import Arith.
Lemma l2 : True /\\ forall n m : nat, n * 2 + m <= 3 * n + m + 1.
Proof.
  split.
  - exact I.
  - admit.
Admitted.
"""


@pytest.mark.rocq
def test_allow_require_adds_the_line_a_proof_needs_and_reports_it(tmp_path, capsys):
    from prover.commands.prove import main

    path = tmp_path / "A.v"
    path.write_text(NO_LIA, encoding="utf-8")
    out = tmp_path / "out.v"
    args = [str(path), "--json", "--no-cache", "--hole-timeout", "25", "--timeout", "60", "--out", str(out)]
    assert main(args) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["requires_added"] == [] and "--allow-require" in report["holes"][0]["reason"]
    assert main([*args, "--allow-require"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["requires_added"] == ["From Coq Require Import Lia."]
    assert report["holes"][0]["status"] == "proved" and report["holes"][0]["kind"] == "admit"
    written = out.read_text(encoding="utf-8")
    assert written.startswith("(* ∣ a file that does not load Lia *)\nRequire Import Arith.\nFrom Coq Require Import Lia.\nLemma l2")
    assert written.endswith("}\nQed.\n")


JUDGED = """\
Lemma a : 1 = 1.
Proof.
Admitted.
Lemma b : True /\\ 1 = 1.
Proof.
  split.
  - exact I.
  - admit.
Admitted.
"""


@pytest.mark.rocq
def test_the_verdict_on_admit_fills_in_context():
    (hole,) = [h for h in find_holes(JUDGED) if h.kind == "admit"]
    proved = [HoleResult(name="a", kind="admitted", status="not_proved"), HoleResult(name=hole.label, kind="admit", status="proved")]
    honest = judge(JUDGED, fill(JUDGED, hole, "reflexivity."), proved, None)
    assert honest.holes[1].status == "proved" and "- { reflexivity. }\nQed." in honest.text
    resting = judge(JUDGED, fill(JUDGED, hole, "exact a."), proved, None)
    assert resting.holes[1].status == "proved_assuming" and resting.holes[1].assumes == ("a",)
    # a block that leaves its goal open does not compile: nothing is written
    open_goal = judge(JUDGED, fill(JUDGED, hole, "idtac."), proved, None)
    assert open_goal.holes[1].status == "not_proved" and "does not compile" in open_goal.holes[1].reason
    assert open_goal.text == JUDGED
