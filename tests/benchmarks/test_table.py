"""``prover-bench table``: the results table from a manifest of runs, and the README's copy of it."""

from pathlib import Path

import pytest

from benchmarks import cli
from benchmarks.db import ResultsDB
from benchmarks.problem import AttemptResult, BenchProblem
from benchmarks.table import DEFAULT_MANIFEST, HEADER, TableError, budget_text, load_manifest, table

ROOT = Path(__file__).resolve().parents[2]
START, END = "<!-- results-table:start -->", "<!-- results-table:end -->"

DEFAULT_CONFIG = {"preset": "default", "budget": {"seconds": 5.0, "clock": "cpu"}}


def _problem(name: str, split: str) -> BenchProblem:
    return BenchProblem(suite="toy", name=name, language="rocq", split=split,
                        text=f"Theorem {name} : True.\nProof.\nAdmitted.\n")


def _run(db: ResultsDB, key: str, label: str, code: str, outcomes: dict[str, list[str]], config: dict) -> None:
    db.ensure_run(key, label=label, suite="toy", suite_version="v1", config_hash=key, config=config, timeout_s=60.0,
                  command="prover-bench run toy", code_version=code)
    for pid, seq in outcomes.items():
        for seed, outcome in enumerate(seq):
            aid = db.claim(key, pid, seed, suite_version="v1", config_hash=key, timeout_s=60.0, owner="test")
            assert aid is not None
            db.finish(aid, AttemptResult(outcome=outcome, proof="auto." if outcome == "proved" else None,
                                         checker_cpu_s=1.25, wall_s=2.0))


@pytest.fixture()
def toy_db(tmp_path):
    """Two runs labelled ``default`` (two code versions) and one ``sweep`` run with two seeds."""
    path = tmp_path / "runs" / "toy.db"
    path.parent.mkdir()
    problems = [_problem(n, "test") for n in ("a", "b", "c", "d")]
    with ResultsDB(path) as db:
        db.upsert_problems(problems)
        ids = [p.id for p in problems]
        _run(db, "k1", "default", "aaaaaaa", {ids[0]: ["proved"], ids[1]: ["failed"], ids[2]: ["timeout"],
                                              ids[3]: ["error"]}, DEFAULT_CONFIG)
        _run(db, "k2", "default", "bbbbbbb", {i: ["proved"] for i in ids[:3]} | {ids[3]: ["failed"]}, DEFAULT_CONFIG)
        _run(db, "k3", "sweep", "", {ids[0]: ["proved", "failed"], ids[1]: ["failed", "failed"]}, {})
    return path


def _manifest(tmp_path: Path, *entries: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text("\n".join(f"[[run]]\n{e}\n" for e in entries), encoding="utf-8")
    return path


def test_rows_come_from_the_database(tmp_path, toy_db):
    manifest = _manifest(
        tmp_path,
        'db = "runs/toy.db"\nlabel = "default"\ncode_version = "aaaaaaa"\nsuite = "Toy"\nsplit = "test"\nuse = "held-out"',
        'db = "runs/toy.db"\nlabel = "default"\ncode_version = "bbbbbbb"\nsuite = "Toy"\nsplit = "test"\n'
        'use = "tuned-on"\npreset = "default (second run)"',
        'db = "runs/toy.db"\nlabel = "sweep"\nsuite = "Toy"\nsplit = "test"\nuse = "development"\npreset = "policy"',
    )
    assert table(manifest) == HEADER + "\n" + (
        "| Toy | test (held out) | default | 1/4 | 25.0% | 5 s CPU | 5 | `aaaaaaa` |\n"
        "| Toy | test (read while tuning) | default (second run) | 3/4 | 75.0% | 5 s CPU | 5 | `bbbbbbb` |\n"
        "| Toy | test (development) | policy | 1/2 | 25.0% | 60 s | 5 | `not recorded` |\n")


def test_budget_wording():
    assert budget_text({"budget": {"seconds": 100.0, "inner_timeout": 5.0}}, 60.0) == "100 s wall (5 s per tactic)"
    assert budget_text({"budget": {"seconds": 25.0, "clock": "wall", "hammer_seconds": 20.0}}, 60.0) == \
        "25 s wall (hammer call 20 s)"
    assert budget_text({}, 8.0) == "8 s"


@pytest.mark.parametrize(("entry", "message"), [
    ('db = "runs/toy.db"\nlabel = "default"\nsuite = "Toy"\nsplit = "test"', "2 runs match label 'default'"),
    ('db = "runs/toy.db"\nlabel = "nope"\nsuite = "Toy"\nsplit = "test"', "0 runs match label 'nope'"),
    ('db = "runs/toy.db"\nlabel = "sweep"\nsuite = "Toy"\nsplit = "valid"', "the run's problems are test"),
    (('db = "runs/toy.db"\nlabel = "default"\ncode_version = "aaaaaaa"\nsuite = "Toy"\nsplit = "test"\n'
      'preset = "hammer"'), "the run's config says 'default'"),
    (('db = "runs/toy.db"\nlabel = "default"\ncode_version = "aaaaaaa"\nsuite = "Toy"\nsplit = "test"\n'
      'preset = "hammer (default)"'), "the run's config says 'default'"),
    ('db = "runs/missing.db"\nlabel = "x"\nsuite = "Toy"\nsplit = "test"', "no such results database"),
    ('db = "runs/toy.db"\nlabel = "sweep"\nsuite = "Toy"\nsplit = "test"\nuse = "tuned"', "use 'tuned' is not one of"),
    ('db = "runs/toy.db"\nlabel = "sweep"\nsuite = "Toy"', "field 'split' is required"),
    ('db = "runs/toy.db"\nlabel = "sweep"\nsuite = "Toy"\nsplit = "test"\nrun = "x"', "unknown field(s) run"),
])
def test_a_manifest_that_does_not_match_the_database_is_refused(tmp_path, toy_db, entry, message):
    with pytest.raises(TableError) as e:
        table(_manifest(tmp_path, entry))
    assert message in str(e.value)


def test_unreadable_manifests_are_refused(tmp_path):
    with pytest.raises(TableError, match="no such manifest"):
        load_manifest(tmp_path / "absent.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[[run]\n", encoding="utf-8")
    with pytest.raises(TableError, match="unreadable manifest"):
        load_manifest(bad)
    bad.write_text("title = 'no runs'\n", encoding="utf-8")
    with pytest.raises(TableError, match=r"no \[\[run\]\] entries"):
        load_manifest(bad)


def test_cli_prints_and_writes_the_table(tmp_path, toy_db, capsys):
    manifest = _manifest(tmp_path, 'db = "runs/toy.db"\nlabel = "sweep"\nsuite = "Toy"\nsplit = "test"')
    out = tmp_path / "TABLE.md"
    assert cli.main(["table", str(manifest), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed == out.read_text(encoding="utf-8") == table(manifest)
    assert cli.main(["table", str(tmp_path / "absent.toml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("prover-bench: error: no such manifest") and err.count("\n") == 1


def test_readme_table_is_the_committed_manifest_s_table():
    """The README's results table is exactly what ``prover-bench table`` prints for
    ``results/table.toml`` (regenerate with ``prover-bench table --out results/TABLE.md`` and paste
    it between the marker comments)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert START in readme and END in readme, f"README.md has no {START} ... {END} block"
    block = readme.split(START, 1)[1].split(END, 1)[0].strip("\n") + "\n"
    expected = table(DEFAULT_MANIFEST)
    assert block == expected
    assert (ROOT / "results" / "TABLE.md").read_text(encoding="utf-8") == expected


def test_a_union_row_counts_what_any_of_its_runs_solved(tmp_path, toy_db):
    manifest = _manifest(
        tmp_path,
        'db = "runs/toy.db"\nlabel = "default"\ncode_version = "aaaaaaa"\nsuite = "Toy"\nsplit = "test"\npreset = "a + b"\n'
        'union = [{db = "runs/toy.db", label = "default", code_version = "bbbbbbb"}]',
    )
    assert table(manifest) == HEADER + "\n| Toy | test | a + b | 3/4 | 75.0% | 5 s CPU | 10 | `aaaaaaa`, `bbbbbbb` |\n"
    bad = _manifest(tmp_path, 'db = "runs/toy.db"\nlabel = "default"\nsuite = "Toy"\nsplit = "test"\nunion = ["x"]')
    with pytest.raises(TableError, match="union must be a list"):
        table(bad)
