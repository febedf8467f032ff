"""The fixed samples of expert iteration: ``dev-heldout`` (lemmas of held-out files, drawn from
reprove-dev) and ``dev-iter`` (lemmas of training files), their determinism and their split."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks import reprove
from benchmarks.library_split import is_held_out
from benchmarks.reprove_samples import heldout_sample, iter_sample
from benchmarks.suites import SUITES, get_suite

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "reprove"


def _files(library: str, n: int, held: bool) -> list[str]:
    out, i = [], 0
    while len(out) < n:
        rel = f"D/F{i}.v"
        if is_held_out(library, rel) == held:
            out.append(rel)
        i += 1
    return out


@pytest.fixture
def fake_install(tmp_path: Path) -> Path:
    """stdlib and stdpp, each with held-out and training files of five lemmas, and a test library."""
    where = tmp_path / "coq"
    for lib, root in (("stdlib", where / "theories"), ("stdpp", where / "user-contrib" / "stdpp")):
        for rel in _files(lib, 2, True) + _files(lib, 3, False):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text("".join(f"Lemma l{i} : True.\nProof. exact I. Qed.\n" for i in range(5)))
    (where / "user-contrib" / "Other").mkdir(parents=True)
    (where / "user-contrib" / "Other" / "A.v").write_text("Lemma o : True.\nProof. exact I. Qed.\n")
    return where


def _reject_l3(c: reprove.Candidate) -> reprove.Checked:
    return reprove.Checked("Error: made up" if c.site.name == "l3" else "")


def test_iter_sample_takes_validated_lemmas_of_training_files_only(fake_install: Path) -> None:
    a, failed = iter_sample(_reject_l3, where=fake_install, size=12, workers=2)
    b, _ = iter_sample(_reject_l3, where=fake_install, size=12, workers=1)
    assert a == b and len(a) == 12
    assert {e.library for e in a} == {"stdlib", "stdpp"} and sum(e.library == "stdpp" for e in a) == 6
    assert not any(is_held_out(e.library, e.relpath) for e in a)
    assert not any(e.lemma == "l3" for e in a)
    assert all(x.stage == "validate" and x.lemma.endswith("l3") for x in failed)


def test_heldout_sample_is_seeded_balanced_and_ignores_input_order() -> None:
    dev = reprove.read_entries(DATA / "dev.jsonl")
    shuffled = list(dev)
    random.Random(1).shuffle(shuffled)
    sample = heldout_sample(dev)
    assert sample == heldout_sample(shuffled) and len(sample) == 30
    assert sum(e.library == "stdlib" for e in sample) == 15
    assert {e.name for e in sample} <= {e.name for e in dev}
    assert all(is_held_out(e.library, e.relpath) for e in sample)


def test_committed_samples_are_the_ones_the_code_draws() -> None:
    assert reprove.read_entries(DATA / "dev-heldout.jsonl") == heldout_sample(reprove.read_entries(DATA / "dev.jsonl"))
    it = reprove.read_entries(DATA / "dev-iter.jsonl")
    assert len(it) == 30 and {e.library for e in it} == {"stdlib", "stdpp"}
    assert not any(is_held_out(e.library, e.relpath) for e in it)
    held_files = {(e.library, e.relpath) for e in reprove.read_entries(DATA / "dev.jsonl")}
    assert not held_files & {(e.library, e.relpath) for e in it}


def test_samples_are_registered_suites() -> None:
    assert {"reprove-dev-iter", "reprove-dev-heldout"} <= set(SUITES)
    assert get_suite("reprove-dev-iter").name == "reprove-dev-iter"


@pytest.mark.rocq
def test_sample_suites_load_from_the_installed_sources() -> None:
    for suite in ("reprove-dev-heldout", "reprove-dev-iter"):
        problems = list(get_suite(suite).load())
        split = suite.removeprefix("reprove-")
        assert [p.name for p in problems] == [e.name for e in reprove.read_entries(DATA / f"{split}.jsonl")]
        assert all(p.suite == suite and p.split == split and "\nAdmitted.\n" in p.text for p in problems)
