"""The reprove benchmark: cutting library files, exclusions, the seeded sample, the stored
splits, and the reprove-specific verdict (``lean_tools.soundness.reprove_checks``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import reprove
from benchmarks.library_split import is_held_out
from benchmarks.reprove_cut import cut_text, scan_file
from benchmarks.suites import Reprove, SuiteError, get_suite
from lean_tools.soundness.reprove_checks import (
    check_reprove,
    library_reason,
    mentions_original,
    parse_print_libraries,
)

NESTED = """\
Require Import Arith.
(* a comment with Lemma fake : False. Proof. Qed. *)
Section S.
  Variable A : Type.
  Module M.
    Lemma first (x : A) : x = x. Proof. reflexivity. Qed. Lemma second : True. Proof. exact I. Qed.
  End M.
  Lemma third : 1 = 1.
  Proof using A.
    reflexivity.
  Qed.
End S.
Lemma last : True. Proof. exact I. Qed.
"""


def _sites(text: str) -> dict[str, object]:
    return {s.name: s for s in scan_file(text)}


def test_cut_closes_open_scopes_innermost_first_and_drops_what_follows():
    sites = _sites(NESTED)
    cut = cut_text(NESTED, sites["first"])
    assert cut.endswith("Lemma first (x : A) : x = x.\nProof.\nAdmitted.\nEnd M.\nEnd S.\n")
    assert "second" not in cut and "reflexivity" not in cut
    assert sites["first"].qualified == "M.first" and sites["first"].exclusion is None


def test_cut_is_at_the_sentence_not_the_line():
    sites = _sites(NESTED)
    cut = cut_text(NESTED, sites["second"])
    # the same line holds `first` with its proof: kept verbatim, the cut is after `second`'s statement
    assert "Lemma first (x : A) : x = x. Proof. reflexivity. Qed. Lemma second : True.\nProof.\nAdmitted.\nEnd M.\nEnd S.\n" in cut


def test_cut_keeps_proof_using_and_ignores_comments():
    sites = _sites(NESTED)
    assert "fake" not in sites
    cut = cut_text(NESTED, sites["third"])
    assert cut.endswith("Lemma third : 1 = 1.\nProof using A.\nAdmitted.\nEnd S.\n")
    assert "Module M." in cut and "End M." in cut  # the closed module stays as it was
    assert cut_text(NESTED, sites["last"]).endswith("Lemma last : True.\nProof.\nAdmitted.\n")


def test_cut_handles_non_ascii_text():
    text = ("(* é, λ, ∀ *)\nNotation \"x ≤≤ y\" := (x <= y) (at level 70).\n"
            "Lemma α_β : forall n, n ≤≤ n.\nProof. auto. Qed.\nLemma after : True. Proof. exact I. Qed.\n")
    site = _sites(text)["α_β"]
    assert cut_text(text, site) == text[: text.index("Proof.")].rstrip("\n") + "\nProof.\nAdmitted.\n"


EXCLUDED = """\
Module Type T. Parameter t : Type. Lemma in_type : True. Proof. exact I. Qed. End T.
Module F (P : T). Lemma in_functor : True. Proof. exact I. Qed. End F.
Module A <: T with Definition t := nat. Definition t := nat. Lemma in_ascribed : True. Proof. exact I. Qed. End A.
Module Alias := A.
Lemma defined : True. Proof. exact I. Defined.
Lemma admitted : True. Proof. Admitted.
Lemma term : True := I.
Lemma proof_term : True. Proof I.
Program Lemma prog : True. Proof. exact I. Qed.
Lemma ok_after : True. Proof. exact I. Qed.
"""


def test_exclusion_reasons():
    reasons = {s.name: s.exclusion for s in scan_file(EXCLUDED)}
    assert "Module Type" in reasons["in_type"]
    assert "functor" in reasons["in_functor"]
    assert "type ascription" in reasons["in_ascribed"]
    assert "Defined" in reasons["defined"]
    assert "admitted" in reasons["admitted"]
    assert "term in the statement" in reasons["term"]
    assert "Proof t." in reasons["proof_term"]
    assert "Program" in reasons["prog"]
    assert reasons["ok_after"] is None  # `Module Alias := A.` opened nothing; every End matched


def test_cut_file_is_a_problem_the_prover_parses():
    from prover.problem import problem_from_text

    cut = cut_text(NESTED, _sites(NESTED)["first"])
    prob = problem_from_text(cut, "rocq", theorem="first")
    assert prob.theorem_name == "first"
    assert prob.postamble.strip() == "End M.\nEnd S."


# --- sampling -------------------------------------------------------------------------------


def test_allocate_gives_equal_quotas_and_passes_on_what_a_library_lacks():
    assert reprove.allocate(150, {"a": 1000, "b": 1000, "c": 1000}) == {"a": 50, "b": 50, "c": 50}
    assert reprove.allocate(10, {"a": 2, "b": 100, "c": 100}) == {"a": 2, "b": 4, "c": 4}
    assert reprove.allocate(7, {"b": 100, "a": 100}) == {"a": 4, "b": 3}
    assert reprove.allocate(50, {"a": 3, "b": 4}) == {"a": 3, "b": 4}


def _held_out_names(library: str, folder: str, n: int, held: bool) -> list[str]:
    out, i = [], 0
    while len(out) < n:
        rel = f"{folder}/F{i}.v"
        if is_held_out(library, rel) == held:
            out.append(rel)
        i += 1
    return out


def _lemmas(prefix: str, n: int) -> str:
    return "".join(f"Lemma {prefix}{i} : True.\nProof. exact I. Qed.\n" for i in range(n))


@pytest.fixture
def fake_install(tmp_path: Path) -> Path:
    """A Rocq installation layout: stdlib and stdpp (dev), two test libraries, one without sources."""
    where = tmp_path / "coq"
    for rel in _held_out_names("stdlib", "Lists", 2, True) + _held_out_names("stdlib", "Lists", 2, False):
        (where / "theories" / rel).parent.mkdir(parents=True, exist_ok=True)
        (where / "theories" / rel).write_text(_lemmas("s", 6) + "Lemma d : True. Proof. exact I. Defined.\n")
    for rel in _held_out_names("stdpp", "x", 1, True):
        (where / "user-contrib/stdpp" / rel).parent.mkdir(parents=True, exist_ok=True)
        (where / "user-contrib/stdpp" / rel).write_text(_lemmas("p", 4))
    (where / "user-contrib/Big/sub").mkdir(parents=True)
    (where / "user-contrib/Big/sub/Many.v").write_text(_lemmas("m", 40))
    (where / "user-contrib/Small").mkdir(parents=True)
    (where / "user-contrib/Small/One.v").write_text("Section Z.\n" + _lemmas("o", 2) + "End Z.\n")
    (where / "user-contrib/NoSrc").mkdir(parents=True)
    (where / "user-contrib/NoSrc/X.vo").write_text("")
    return where


def _reject_some(c: reprove.Candidate) -> reprove.Checked:
    return reprove.Checked("Error: made up" if c.site.name.endswith("3") else "")


def test_build_is_deterministic_keeps_quotas_and_records_exclusions(fake_install: Path, tmp_path: Path):
    sizes = {"dev": 8, "test": 9}
    out1, out2 = tmp_path / "a", tmp_path / "b"
    s1 = reprove.build(out1, sizes=sizes, validator=_reject_some, where=fake_install, workers=2)
    reprove.build(out2, sizes=sizes, validator=_reject_some, where=fake_install, workers=1)
    for name in ("dev.jsonl", "test.jsonl", "exclusions.jsonl"):
        assert (out1 / name).read_bytes() == (out2 / name).read_bytes()
    dev = [json.loads(x) for x in (out1 / "dev.jsonl").read_text().splitlines()]
    test = [json.loads(x) for x in (out1 / "test.jsonl").read_text().splitlines()]
    assert s1.problems == {"dev": {"stdlib": 5, "stdpp": 3}, "test": {"Big": 7, "Small": 2}}
    assert all(is_held_out(e["library"], e["relpath"]) for e in dev)
    assert not any(e["lemma"].endswith("3") for e in dev + test)
    assert {e["library"] for e in test} == {"Big", "Small"}
    assert test[0]["flags"] == ["-R", "{coqlib}/user-contrib/Big", "Big"] and test[0]["reference"].startswith("Big.sub.Many.m")
    excl = [json.loads(x) for x in (out1 / "exclusions.jsonl").read_text().splitlines()]
    stages = {(x["split"], x["stage"], x["reason"]) for x in excl}
    assert ("test", "library", "no .v sources installed") in stages
    assert ("dev", "validate", "Error: made up") in stages
    assert any(x[1] == "scan" and "Defined" in x[2] for x in stages)


def test_sample_order_does_not_depend_on_listing_order(fake_install: Path):
    libs = reprove.installed_libraries(fake_install)
    cands, _ = reprove.pool("test", libs)
    cands_rev, _ = reprove.pool("test", list(reversed(libs)))
    a, _ = reprove.sample("test", cands, 9, _reject_some)
    b, _ = reprove.sample("test", dict(reversed(list(cands_rev.items()))), 9, _reject_some)
    assert [c.reference for c in a] == [c.reference for c in b]


def test_suite_rebuilds_texts_and_detects_a_changed_source(fake_install: Path, tmp_path: Path):
    data = tmp_path / "data"
    reprove.build(data / "reprove", sizes={"dev": 3, "test": 4}, validator=_reject_some, where=fake_install)
    probs = list(Reprove(data, "test", where=fake_install).load())
    assert len(probs) == 4 and all(p.suite == "reprove-test" for p in probs)
    small = next(p for p in probs if p.tags == ("Small",))
    assert small.text.endswith("Proof.\nAdmitted.\nEnd Z.\n") and small.reference == f"Small.One.{small.theorem}"
    assert small.flags == ("-R", f"{fake_install}/user-contrib/Small", "Small")
    (fake_install / "user-contrib/Small/One.v").write_text("Section Z.\n" + _lemmas("o", 3) + "End Z.\n")
    with pytest.raises(SuiteError, match="sha256 changed"):
        list(Reprove(data, "test", where=fake_install).load())


def test_suites_are_registered_and_missing_data_is_a_clear_error(tmp_path: Path):
    assert get_suite("reprove-dev", tmp_path).name == "reprove-dev"
    with pytest.raises(SuiteError, match="prover-bench reprove build"):
        list(get_suite("reprove-test", tmp_path).load())


# --- the reprove checks ---------------------------------------------------------------------


def test_print_libraries_reads_the_last_block_only():
    forged = "Loaded library files: \n  Coq.Init.Prelude\n"
    real = "Loaded library files: \n  Coq.Init.Prelude\n  Coq.Lists.List\n\nother output\n"
    assert parse_print_libraries(forged + "noise\n" + real) == ("Coq.Init.Prelude", "Coq.Lists.List")
    assert parse_print_libraries("no such block") is None


def test_mentions_original_sees_code_not_comments_or_longer_names():
    name = "Coq.Lists.List.app_nil_r"
    assert mentions_original("Proof. exact Coq.Lists.List.app_nil_r. Qed.", name)
    assert not mentions_original("(* Coq.Lists.List.app_nil_r *) Proof. auto. Qed.", name)
    assert not mentions_original("exact Coq.Lists.List.app_nil_r'.", name)


def test_library_reason():
    ref = ("Coq.Init.Prelude", "Coq.Lists.SetoidList")
    assert library_reason(ref, ref, "Coq.Lists.List") is None
    assert "does not" in (library_reason(ref, (*ref, "Coq.Lists.ListDec"), None) or "")
    assert "Coq.Lists.List" in (library_reason(ref, (*ref, "Coq.Lists.List"), "Coq.Lists.List") or "")
    assert library_reason((*ref, "Coq.Lists.List"), (*ref, "Coq.Lists.List"), "Coq.Lists.List") is not None
    assert library_reason(ref, ref[:1], None) is not None


@pytest.fixture(scope="module")
def list_problem() -> str:
    where = reprove.coqlib()
    src = (where / "theories/Lists/List.v").read_text(encoding="utf-8")
    return cut_text(src, _sites(src)["app_nil_r"])


@pytest.mark.rocq
def test_honest_proof_is_accepted(list_problem: str):
    honest = list_problem.replace("Proof.\nAdmitted.", "Proof.\n  induction l; simpl; f_equal; auto.\nQed.")
    v = check_reprove(list_problem, honest, "Coq.Lists.List.app_nil_r", original_module="Coq.Lists.List")
    assert v.accepted, v.reason


@pytest.mark.rocq
def test_proof_by_the_original_is_rejected(list_problem: str):
    cheat = list_problem.replace("Proof.\nAdmitted.", "Proof.\n  exact Coq.Lists.List.app_nil_r.\nQed.")
    v = check_reprove(list_problem, cheat, "Coq.Lists.List.app_nil_r")
    assert not v.accepted and "names the original" in v.reason


@pytest.mark.rocq
def test_proof_that_requires_another_library_is_rejected(list_problem: str):
    # ListDec depends on List: loading it brings the original back under a partial name
    cheat = "Require Coq.Lists.ListDec.\n" + list_problem.replace("Proof.\nAdmitted.", "Proof.\n  exact (List.app_nil_r l).\nQed.")
    v = check_reprove(list_problem, cheat, "Coq.Lists.List.app_nil_r")
    assert not v.accepted and "Coq.Lists.List" in v.reason
    # a library unrelated to the original is rejected too: the context must stay the problem's
    other = "Require Coq.Strings.Ascii.\n" + list_problem.replace("Proof.\nAdmitted.", "Proof.\n  induction l; simpl; f_equal; auto.\nQed.")
    v = check_reprove(list_problem, other, "Coq.Lists.List.app_nil_r", original_module="Coq.Lists.List")
    assert not v.accepted and "Coq.Strings.Ascii" in v.reason


@pytest.mark.rocq
def test_benchmark_recheck_rejects_what_only_the_reprove_check_catches(list_problem: str):
    """``Require Import Lia`` is an allowed helper for the general verdict, and Lia loads List:
    the original is then reachable as ``List.app_nil_r``. Only the reprove check stops it."""
    from benchmarks.problem import BenchProblem
    from benchmarks.prover_attempt import recheck

    prob = BenchProblem(suite="reprove-dev", name="Coq.Lists.List.app_nil_r", language="rocq", text=list_problem,
                        theorem="app_nil_r", reference="Coq.Lists.List.app_nil_r")
    at = list_problem.index("  Theorem app_nil_r")
    cheat = (list_problem[:at] + "From Coq Require Import Lia.\n"
             + list_problem[at:].replace("Proof.\nAdmitted.", "Proof.\n  exact (List.app_nil_r l).\nQed."))
    assert recheck(prob.model_copy(update={"reference": None}), cheat, 120)[0]  # the general verdict alone accepts it
    ok, why = recheck(prob, cheat, 120)
    assert not ok and "reprove check" in why and "Coq.Lists.List," in why


@pytest.mark.rocq
def test_validation_passes_a_problems_flags():
    """Flocq's files ``Require`` their siblings by short names: only its ``-R`` mapping resolves them."""
    from benchmarks.problem import BenchProblem
    from benchmarks.validate import check_statement

    where = reprove.coqlib()
    lib = next(x for x in reprove.installed_libraries(where) if x.name == "Flocq")
    src = (lib.root / "Core/Raux.v").read_text(encoding="utf-8")
    site = next(s for s in scan_file(src) if s.exclusion is None)
    flags = reprove.expand_flags(reprove.library_flags(lib, "Core/Raux.v"), where)
    prob = BenchProblem(suite="t", name=site.name, language="rocq", text=cut_text(src, site), theorem=site.name, flags=flags)
    assert check_statement(prob, timeout=120)[0] == "ok"
    status, reason, _cpu = check_statement(prob.model_copy(update={"flags": ("-w", "-all")}), timeout=120)
    assert status == "failed" and "physical path" in reason


def test_build_command_rejects_bad_arguments(capsys):
    from benchmarks.cli import main

    assert main(["reprove", "build", "--workers", "0"]) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err
