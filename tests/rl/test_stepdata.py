"""Step data: the record, dedup, the split by file, the sentence pieces, the k-NN source, and
(with Rocq) the replay of a small file and a resumable build."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.library_split import is_held_out
from rl.stepdata import cli
from rl.stepdata.build import BuildConfig, library_files, library_root, replay_library, split_of
from rl.stepdata.knn import KnnIndex, Vote, evaluate
from rl.stepdata.replay import parse_show, pieces, replay_file
from rl.stepdata.schema import LICENCES, Goal, Split, Step, dedup, goal_from_text, read_jsonl, write_jsonl


def _step(conclusion: str, tactic: str, *, hyps: tuple[str, ...] = (), lemma: str = "l", split: Split = "train") -> Step:
    return Step(library="stdlib", licence="LGPL-2.1-only", file="A/B.v", lemma=lemma, index=0,
                goals_before=Goal(hypotheses=hyps, conclusion=conclusion), tactic=tactic,
                goals_after=Goal(), split=split)


def test_step_jsonl_round_trip(tmp_path: Path) -> None:
    steps = [_step("n + 0 = n", "lia.", hyps=("n : nat",)), _step("True", "exact I.", lemma="t")]
    assert write_jsonl(tmp_path / "s.jsonl", steps) == 2
    assert list(read_jsonl(tmp_path / "s.jsonl")) == steps


def test_read_jsonl_names_the_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(_step("True", "exact I.").model_dump_json() + "\n{\"library\": \"mathcomp\"}\n")
    with pytest.raises(ValueError, match=r"s\.jsonl:2"):
        list(read_jsonl(path))


def test_dedup_key_ignores_whitespace_and_keeps_distinct_tactics() -> None:
    a = _step("n +  0 = n", "lia.", hyps=("n : nat",))
    b = _step("n + 0\n  = n", "lia.", hyps=("n :  nat",), lemma="other")
    c = _step("n + 0 = n", "auto.", hyps=("n : nat",))
    assert dedup([a, b, c]) == [a, c]


def test_goal_from_text_reads_coqtop_goals() -> None:
    g = goal_from_text("  n, m : nat\n  H : forall k,\n        k = m\n  ============================\n  n = m", others=2)
    assert g.hypotheses == ("n, m : nat", "H : forall k,\n      k = m")
    assert (g.conclusion, g.others) == ("n = m", 2)
    assert goal_from_text("True").conclusion == "True"


def test_split_is_by_file_with_is_held_out() -> None:
    rels = [f"Dir/F{i}.v" for i in range(40)]
    assert {split_of("stdpp", r) for r in rels} == {"train", "valid"}
    for r in rels:
        assert (split_of("stdpp", r) == "valid") == is_held_out("stdpp", r)
    with pytest.raises(ValueError, match="may not enter"):
        library_root("mathcomp", Path("/x"))


def test_library_files_limit_is_a_stable_subset(tmp_path: Path) -> None:
    for i in range(6):
        (tmp_path / "d").mkdir(exist_ok=True)
        (tmp_path / "d" / f"f{i}.v").write_text("")
    assert library_files(tmp_path) == [f"d/f{i}.v" for i in range(6)]
    sub = library_files(tmp_path, 3)
    assert len(sub) == 3 and sub == library_files(tmp_path, 3) and set(sub) <= set(library_files(tmp_path))


def test_pieces_split_bullets_and_braces_off() -> None:
    text = "Lemma a : T.\nProof. (* c. *) split.\n- tac1.\n  + tac2; [|x].\n2: { now auto. }\n} Qed.\nDefinition r := {| f := 1 |}."
    got = [(p.text, p.structure) for p in pieces(text)]
    assert got == [("Lemma a : T.", False), ("Proof.", False), ("split.", False), ("-", True),
                   ("tac1.", False), ("+", True), ("tac2; [|x].", False), ("2: {", True),
                   ("now auto.", False), ("}", True), ("}", True), ("Qed.", False),
                   ("Definition r := {| f := 1 |}.", False)]


def test_parse_show_reads_the_focused_goal() -> None:
    body = ("3 goals (ID 12)\n  \n  n, m : nat\n  ============================\n  n + 0 = m\n\n"
            "goal 2 (ID 15) is:\n True\ngoal 3 (ID 16) is:\n True\n\n<prompt>foo < 11 |foo| 0 < </prompt>")
    view = parse_show(body)
    assert view.open and view.name == "foo"
    assert view.goal == Goal(hypotheses=("n, m : nat",), conclusion="n + 0 = m", others=2)
    done = parse_show("<infomsg>\nThis subproof is complete, but there are some unfocused goals.\n</infomsg>\n"
                      "1 goal\n\ngoal 1 (ID 16) is:\n True\n\n<prompt>foo < 25 |foo| 0 < </prompt>")
    assert done.open and done.goal.closed
    shelved = parse_show("1 focused goal (shelved: 1) (ID 20)\n  \n  ============================\n  ?k = 0\n\n"
                         "<prompt>foo < 30 |foo| 0 < </prompt>")
    assert shelved.goal == Goal(conclusion="?k = 0")
    closed = parse_show("Toplevel input, characters 0-5:\n> Show.\nError: This command requires an open proof.\n\n"
                        "<prompt>Coq < 39 || 0 < </prompt>")
    assert not closed.open


def _tiny_index() -> KnnIndex:
    return KnnIndex.build([
        _step("forall n : nat, n + 0 = n", "intros n; lia.", lemma="add0"),
        _step("forall l : list nat, rev (rev l) = l", "induction l; simpl; auto.", lemma="revrev"),
        _step("forall l : list nat, length (rev l) = length l", "induction l; simpl; auto.", lemma="revlen"),
        _step("True", "exact I.", lemma="tt"),
        _step("x = x", "reflexivity.", hyps=("x : nat",), lemma="refl"),
    ])


@pytest.mark.parametrize("vote", ["nearest", "sum"])
def test_knn_returns_the_tactic_of_the_nearest_goal_first(vote: Vote, tmp_path: Path) -> None:
    index = _tiny_index()
    got = index.suggest("  l : list nat\n  ============================\n  rev (rev (rev l)) = rev l", 3, vote=vote)
    assert got[0].tactic == "induction l; simpl; auto." and got[0].source_lemma == "revrev"
    assert len({s.tactic for s in got}) == len(got)  # each tactic once
    assert [s.score for s in got] == sorted((s.score for s in got), reverse=True)
    assert index.suggest("  y : nat\n  ============================\n  y = y", 1, vote=vote)[0].tactic == "reflexivity."
    index.save(tmp_path / "knn")
    again = KnnIndex.load(tmp_path / "knn")
    assert again.suggest("n + 0 = n", 2, vote=vote) == index.suggest("n + 0 = n", 2, vote=vote)
    assert index.suggest("zzz_unknown_token", 3, vote=vote) == []


def test_knn_sum_vote_adds_the_neighbours_up() -> None:
    index = KnnIndex.build([_step("a b c d", "t1."), _step("a b c e", "t2."), _step("a b c f", "t2.")])
    query = Goal(conclusion="a b c d")
    assert index.suggest_goal(query, 2, vote="nearest")[0].tactic == "t1."
    sums = index.suggest_goal(Goal(conclusion="a b c"), 2, vote="sum")
    assert [s.tactic for s in sums] == ["t2.", "t1."] and sums[0].score > sums[1].score


def test_knn_evaluate_counts_exact_matches(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "valid.jsonl", [_step("x = x", "reflexivity.", hyps=("x : nat",), split="valid"),
                                            _step("True /\\ True", "split.", split="valid")])
    got = evaluate(_tiny_index(), tmp_path / "valid.jsonl", k=5)
    assert got["valid_steps"] == 2 and got["knn_nearest_top1"] == 0.5 and got["knn_nearest_top5"] == 0.5
    assert got["frequent_tactics"][0] == "induction l; simpl; auto." and got["frequent_top1"] == 0.0


def test_cli_without_index_says_how_to_make_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["eval", "--data", str(tmp_path)]) == 1
    assert "prover-data index" in capsys.readouterr().err


TINY_V = """\
Lemma and_true (P : Prop) (p : P) : P /\\ True.
Proof.
  split.
  - exact p.
  - exact I.
Qed.

Lemma add_zero : forall n : nat, n + 0 = n.
Proof. intros n. { induction n. { reflexivity. } simpl. rewrite IHn. reflexivity. } Qed.

Lemma dropped : True.
Proof. exact I. Admitted.

Lemma by_term : True.
Proof I.
"""


@pytest.mark.rocq
def test_replay_records_the_steps_of_a_small_file(tmp_path: Path) -> None:
    (tmp_path / "tiny.v").write_text(TINY_V)
    result, steps = replay_file(tmp_path / "tiny.v", "stdpp", "tiny.v", "valid")
    assert (result.status, result.proofs, result.steps) == ("ok", 2, 9), result.reason
    got = [(s.lemma, s.index, s.tactic, s.goals_before.conclusion, s.goals_before.others,
            s.goals_after.conclusion, s.goals_after.others) for s in steps]
    assert got == [
        ("and_true", 0, "split.", "P /\\ True", 0, "P", 1),
        ("and_true", 1, "exact p.", "P", 0, "", 0),
        ("and_true", 2, "exact I.", "True", 0, "", 0),
        ("add_zero", 0, "intros n.", "forall n : nat, n + 0 = n", 0, "n + 0 = n", 0),
        ("add_zero", 1, "induction n.", "n + 0 = n", 0, "0 + 0 = 0", 1),
        ("add_zero", 2, "reflexivity.", "0 + 0 = 0", 0, "", 0),
        ("add_zero", 3, "simpl.", "S n + 0 = S n", 0, "S (n + 0) = S n", 0),
        ("add_zero", 4, "rewrite IHn.", "S (n + 0) = S n", 0, "S n = S n", 0),
        ("add_zero", 5, "reflexivity.", "S n = S n", 0, "", 0),
    ]
    assert steps[1].goals_before.hypotheses == ("P : Prop", "p : P")
    assert all(s.library == "stdpp" and s.licence == "BSD-3-Clause" and s.split == "valid" for s in steps)


@pytest.mark.rocq
def test_build_resumes_and_stops_a_file_at_its_error(tmp_path: Path) -> None:
    root = tmp_path / "coq" / "theories"
    (root / "A").mkdir(parents=True)
    (root / "A" / "good.v").write_text(TINY_V)
    (root / "A" / "bad.v").write_text("Lemma t : True.\nProof. exact I. Qed.\nLemma u : False.\nProof. exact I. Qed.\n")
    config = BuildConfig(libraries=("stdlib",), out=tmp_path / "out", jobs=2)
    seen: list[str] = []
    first = replay_library(config, "stdlib", tmp_path / "coq", lambda r: seen.append(r.file))
    assert sorted(seen) == ["A/bad.v", "A/good.v"]
    bad = next(r for r in first if r.file == "A/bad.v")
    assert (bad.status, bad.proofs, bad.steps) == ("failed", 1, 1) and bad.reason.startswith("line 4:")
    again = replay_library(config, "stdlib", tmp_path / "coq", lambda r: seen.append(r.file))
    assert len(seen) == 2 and again == first  # nothing replayed twice
    assert [r.file for r in first] == ["A/bad.v", "A/good.v"]


def test_cli_index_eval_and_suggest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_jsonl(tmp_path / "train.jsonl", [_step("x = x", "reflexivity.", hyps=("x : nat",)), _step("True", "exact I.")])
    write_jsonl(tmp_path / "valid.jsonl", [_step("y = y", "reflexivity.", hyps=("y : nat",), split="valid")])
    (tmp_path / "goal.txt").write_text("  z : nat\n  ============================\n  z = z\n")
    assert cli.main(["index", "--data", str(tmp_path)]) == 0
    assert cli.main(["eval", "--data", str(tmp_path), "--k", "1"]) == 0
    assert '"knn_sum_top1": 1.0' in capsys.readouterr().out
    assert cli.main(["suggest", str(tmp_path / "goal.txt"), "--data", str(tmp_path), "--k", "1"]) == 0
    assert "reflexivity." in capsys.readouterr().out


def test_committed_sample_obeys_the_split_and_licences() -> None:
    """The 20-row sample of a real build (``tests/data/stepdata``) reads back, and each row's split
    and licence follow from its library and file."""
    rows = list(read_jsonl(Path(__file__).parents[1] / "data" / "stepdata" / "sample.jsonl"))
    assert len(rows) == 20 and {r.library for r in rows} == {"stdlib", "stdpp"}
    for r in rows:
        assert r.split == split_of(r.library, r.file) and r.licence == LICENCES[r.library]
        assert r.source == "human" and not r.goals_before.closed
