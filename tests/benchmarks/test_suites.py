"""Suites: sizes of the bundled data, Rocq normalisation, head/shuffle, folders, licence hygiene."""

import json
from pathlib import Path

import pytest

from benchmarks.suites import BUNDLED_DATA, SuiteError, get_suite, normalize_rocq, resolve_data_dir, theorem_name


@pytest.mark.parametrize("name,split,count,language", [
    ("putnam-coq", None, 412, "rocq"),
    ("putnam-lean", None, 672, "lean"),
    ("minif2f-rocq", "test", 244, "rocq"),
    ("minif2f-rocq-valid", None, 244, "rocq"),
    ("minif2f-lean4", "all", 488, "lean"),
    ("imo-lean", None, 313, "lean"),
    ("imo-rocq", None, 40, "rocq"),
])
def test_bundled_suite_sizes(name, split, count, language, monkeypatch):
    monkeypatch.delenv("PROVER_BENCH_DATA", raising=False)
    problems = list(get_suite(name, split=split).load())
    assert len(problems) == count
    assert {p.language for p in problems} == {language}
    assert len({p.id for p in problems}) == count
    assert all(p.theorem for p in problems if p.suite != "imo-lean")


def test_minif2f_rocq_normalised():
    problems = list(get_suite("minif2f-rocq", split="all").load())
    assert all(p.text.rstrip().endswith(("Admitted.", "Qed.", "Defined.")) for p in problems)
    assert not any("From Stdlib" in p.text for p in problems)
    assert normalize_rocq("From Stdlib Require Import Reals.\nTheorem t : True.\nProof.\n") == \
        "From Coq Require Import Reals.\nTheorem t : True.\nProof.\nAdmitted.\n"
    assert normalize_rocq("Theorem t : True.\nProof. Admitted.\n").count("Admitted") == 1


def test_tags_difficulty_and_theorem_names():
    putnam = {p.name: p for p in get_suite("putnam-coq").load()}
    p = putnam["putnam_1962_a5"]
    assert p.theorem == "putnam_1962_a5" and p.difficulty == "problem 5" and p.tags
    mf = {p.name: p for p in get_suite("minif2f-rocq-test").load()}
    assert mf["aime_1983_p1"].tags == ("aime",)
    assert mf["aime_1983_p1"].split == "test"
    assert theorem_name("theorem foo (x : Nat) : x = x := by\n  sorry", "lean") == "foo"
    assert theorem_name("Lemma a : True.\nTheorem b : True.", "rocq") == "b"
    assert theorem_name("Lemma a : True.\nTheorem b : True.", "rocq", prefer="a") == "a"


def test_head_shuffle_deterministic_and_version_stable():
    s = get_suite("minif2f-rocq-valid")
    a = [p.name for p in s.shuffle(3).head(5).load()]
    b = [p.name for p in s.shuffle(3).head(5).load()]
    c = [p.name for p in s.shuffle(4).head(5).load()]
    assert a == b and a != c and len(a) == 5
    assert [p.name for p in s.head(2).load()] == [p.name for p in s.load()][:2]
    assert s.shuffle(3).head(5).version() == s.version()
    assert s.version() != get_suite("minif2f-rocq-test").version()


def test_folder_suite_and_errors(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.v").write_text("Theorem a : True.\nProof.\nAdmitted.\n")
    (tmp_path / "sub" / "b.lean").write_text("theorem b : True := by\n  sorry\n")
    (tmp_path / "notes.txt").write_text("ignored")
    ps = list(get_suite(str(tmp_path)).load())
    assert [(p.name, p.language, p.theorem) for p in ps] == [("a", "rocq", "a"), ("sub/b", "lean", "b")]
    with pytest.raises(SuiteError, match="unknown suite"):
        get_suite("nonsense-suite")
    with pytest.raises(SuiteError, match="split"):
        get_suite("putnam-coq", split="test")
    with pytest.raises(SuiteError, match="does not exist"):
        resolve_data_dir(tmp_path / "missing")
    with pytest.raises(SuiteError, match="missing data"):
        list(get_suite("putnam-coq", data_dir=tmp_path).load())


def test_informal_only_when_data_dir_has_it(tmp_path, monkeypatch):
    monkeypatch.delenv("PROVER_BENCH_DATA", raising=False)
    assert all(p.informal is None for p in get_suite("putnam-coq").load())
    coq = tmp_path / "putnambench" / "coq"
    coq.mkdir(parents=True)
    src = BUNDLED_DATA / "putnambench" / "coq" / "putnam_1962_a5.v"
    (coq / src.name).write_text(src.read_text())
    (tmp_path / "putnambench" / "informal").mkdir()
    (tmp_path / "putnambench" / "informal" / "putnam.json").write_text(json.dumps(
        [{"problem_name": "putnam_1962_a5", "informal_statement": "Evaluate the sum.", "tags": ["algebra"]}]))
    monkeypatch.setenv("PROVER_BENCH_DATA", str(tmp_path))
    (p,) = list(get_suite("putnam-coq").load())
    assert p.informal == "Evaluate the sum." and p.tags == ("algebra",)


def test_bundled_data_has_licences_and_no_maa_text():
    data = Path(BUNDLED_DATA)
    for lic in ["putnambench/LICENSE-coq-MIT", "putnambench/LICENSE-lean4-isabelle-Apache-2.0", "minif2f/rocq/LICENSE",
                "minif2f/LICENSE-miniF2F-lean4-yangky11-MIT", "imo/LICENSE-compfiles-Apache-2.0", "ATTRIBUTION.md"]:
        assert (data / lic).is_file(), lic
    assert not (data / "putnambench" / "informal").exists()
    for line in (data / "putnambench" / "putnambench.jsonl").read_text().splitlines():
        assert not any(k.startswith("informal") for k in json.loads(line))
    size = sum(f.stat().st_size for f in data.rglob("*") if f.is_file())
    assert size < 10 * 1024 * 1024
