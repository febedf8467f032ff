"""Steps from verified search proofs: the refusals, the substitution of the found body, and (with
Rocq) the replay of a small file that keeps the target lemma's steps only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.db import ResultsDB
from benchmarks.library_split import is_held_out
from benchmarks.problem import AttemptResult, BenchProblem
from rl.stepdata import cli
from rl.stepdata.from_proofs import RefusedSuite, file_refusal, from_proofs, refusal, substitute
from rl.stepdata.schema import read_jsonl

TRAIN_FILE = "Tiny/Fixture.v"
HELD_OUT_FILE = "Tiny/Other.v"

PROBLEM = """Require Import Arith.

Lemma helper_le : forall n, n <= n + 0.
Proof. intros n. rewrite Nat.add_0_r. apply le_n. Qed.

Section S.
Variable k : nat.

Lemma target_add : forall n, n + 0 = n.
Proof.
Admitted.
End S.
"""

TARGET_BODY = """intros n.
  induction n as [|n IH].
  - reflexivity.
  - simpl. rewrite IH. reflexivity.
Qed."""

# The checked file as the prover writes it: a helper before the target, the target proved.
PROOF = PROBLEM.replace("Section S.", "Lemma extra : True.\nProof. exact I. Qed.\n\nSection S.").replace(
    "Proof.\nAdmitted.", "Proof.\n  " + TARGET_BODY)


def _problem(relpath: str, suite: str = "reprove-dev-iter") -> BenchProblem:
    return BenchProblem(suite=suite, name=f"Coq.Tiny.{relpath[5:-2]}.target_add", language="rocq", text=PROBLEM,
                        theorem="target_add", split="dev-iter", tags=("stdlib",), source=f"stdlib:{relpath}",
                        reference=f"Coq.Tiny.{relpath[5:-2]}.target_add")


def _db(path: Path, problems: list[BenchProblem], proof: str = PROOF) -> Path:
    with ResultsDB(path) as db:
        db.upsert_problems(problems)
        db.ensure_run("run1", label="lm", suite=problems[0].suite, suite_version="v", config_hash="c", config={},
                      timeout_s=20.0, command="prover-bench run")
        for p in problems:
            aid = db.claim("run1", p.id, 0, suite_version="v", config_hash="c", timeout_s=20.0, owner="h:1:1")
            assert aid is not None
            db.finish(aid, AttemptResult(outcome="proved", proof=proof))
        aid = db.claim("run1", problems[0].id, 1, suite_version="v", config_hash="c", timeout_s=20.0, owner="h:1:1")
        assert aid is not None
        db.finish(aid, AttemptResult(outcome="failed", reason="no proof found"))
    return path


def test_fixture_files_are_on_the_intended_sides_of_the_split() -> None:
    assert not is_held_out("stdlib", TRAIN_FILE)
    assert is_held_out("stdlib", HELD_OUT_FILE)


@pytest.mark.parametrize("suite", ["minif2f-rocq-test", "minif2f-lean4", "reprove-test", "putnam-coq", "imo-rocq",
                                   "reprove-dev", "reprove-dev-heldout"])
def test_evaluation_suites_are_refused(suite: str, tmp_path: Path) -> None:
    assert refusal(suite) is not None
    with pytest.raises(RefusedSuite, match="used for evaluation"):
        from_proofs(tmp_path / "absent.db", suite, tmp_path / "out.jsonl")
    assert cli.main(["from-proofs", "--db", str(tmp_path / "absent.db"), "--suite", suite,
                     "--out", str(tmp_path / "out.jsonl")]) == 2
    assert not (tmp_path / "out.jsonl").exists()


def test_training_suites_are_not_refused() -> None:
    assert refusal("reprove-dev-iter") is None
    assert file_refusal("stdlib", TRAIN_FILE) is None
    assert "held out" in (file_refusal("stdlib", HELD_OUT_FILE) or "")
    assert "not a development library" in (file_refusal("mathcomp", "ssreflect/ssrnat.v") or "")


def test_substitute_puts_the_found_body_in_the_problem_file() -> None:
    text = substitute(PROBLEM, PROOF, "target_add")
    assert "Lemma extra" not in text  # the prover's helper is not carried over
    assert TARGET_BODY in text and "Admitted." not in text
    assert text.startswith(PROBLEM.split("Proof.\nAdmitted.")[0]) and text.rstrip().endswith("End S.")
    with pytest.raises(ValueError, match="differs"):
        substitute(PROBLEM, PROOF.replace("n + 0 = n.", "0 + n = n."), "target_add")
    with pytest.raises(ValueError, match="Admitted"):
        substitute(PROBLEM, PROBLEM, "target_add")


def test_a_missing_database_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = cli.main(["from-proofs", "--db", str(tmp_path / "nope.db"), "--suite", "reprove-dev-iter",
                   "--out", str(tmp_path / "o.jsonl")])
    assert rc == 2 and "no such results database" in capsys.readouterr().err


@pytest.mark.rocq
def test_from_proofs_replays_the_target_lemma_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _db(tmp_path / "runs.db", [_problem(TRAIN_FILE), _problem(HELD_OUT_FILE)])
    out = tmp_path / "round1" / "search_steps.jsonl"
    assert cli.main(["from-proofs", "--db", str(db), "--suite", "reprove-dev-iter", "--out", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["attempts"] == {"ok": 1, "refused": 1}
    assert [r["problem_id"] for r in summary["not_ok"]] == [_problem(HELD_OUT_FILE).id]
    steps = list(read_jsonl(out))
    assert [s.tactic for s in steps] == ["intros n.", "induction n as [|n IH].", "reflexivity.", "simpl.",
                                         "rewrite IH.", "reflexivity."]
    assert {(s.lemma, s.source, s.split, s.library, s.file, s.licence) for s in steps} == {
        ("target_add", "search", "train", "stdlib", TRAIN_FILE, "LGPL-2.1-only")}
    assert [s.index for s in steps] == list(range(6))
    assert steps[0].goals_before.conclusion == "forall n : nat, n + 0 = n"
    assert steps[2].goals_before.conclusion == "0 + 0 = 0"
    assert steps[-1].goals_after.closed


@pytest.mark.rocq
def test_a_proof_that_does_not_replay_is_recorded_as_failed(tmp_path: Path) -> None:
    bad = PROOF.replace("rewrite IH.", "rewrite no_such_lemma.")
    db = _db(tmp_path / "runs.db", [_problem(TRAIN_FILE)], proof=bad)
    out = tmp_path / "steps.jsonl"
    summary = from_proofs(db, "reprove-dev-iter", out)
    assert summary.attempts == {"failed": 1} and summary.unique_steps == 0
    assert "no_such_lemma" in summary.results[0].reason
    assert out.read_text() == ""


@pytest.mark.rocq
def test_a_target_first_in_its_file_inside_a_module_is_replayed() -> None:
    from rl.stepdata.from_proofs import ProvedAttempt, steps_of_attempt
    from rl.stepdata.replay import ReplayConfig

    text = ("(* nothing before the lemma but this comment *)\n"
            "Module M.\nLemma first_one : forall b : bool, b = b.\nProof.\nAdmitted.\nEnd M.\n")
    proof = text.replace("Proof.\nAdmitted.", "Proof.\n  intros b. destruct b; reflexivity.\nQed.")
    problem = BenchProblem(suite="reprove-dev-iter", name="Coq.Tiny.Fixture.M.first_one", language="rocq", text=text,
                           theorem="first_one", source=f"stdlib:{TRAIN_FILE}")
    result, steps = steps_of_attempt(ProvedAttempt(attempt_id=7, problem=problem, proof=proof), ReplayConfig())
    assert (result.status, result.steps) == ("ok", 2)
    assert [(s.lemma, s.tactic) for s in steps] == [("first_one", "intros b."), ("first_one", "destruct b; reflexivity.")]
