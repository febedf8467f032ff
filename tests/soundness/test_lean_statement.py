"""Lean elaborated-statement check (``lean_verify``) without Lean.

Covered: the generated Lean text (where the reference goes, the query file, names, the
nonce), the parser of the query's answer, and the whole flow against a stand-in ``lake``
(``FAKE_LAKE`` below) that prints canned ``lean --json`` lines. The stand-in decides by
markers in the candidate text; it tests OUR side, not Lean. Real-Lean tests are in
test_lean_dynamic.py (marked ``lean``).
"""

from __future__ import annotations

import json
import os
import re
import sys

import pytest

from lean_tools.lean.checker import LeanChecker, LeanCheckerConfig
from lean_tools.parsing import parse_source
from lean_tools.soundness import verify
from lean_tools.soundness.candidate import locate
from lean_tools.soundness.lean_terms import lean_name, lean_string
from lean_tools.soundness.lean_verify import (
    build_candidate_module,
    build_query,
    name_components,
    parse_query_output,
    reference_names,
    verify_lean,
)
from lean_tools.types import FileCheck, Message, Pos, Severity

NONCE = "0123456789abcdef"

PROBLEM = """import Mathlib

open Real

theorem thm (x : ℝ) : 0 ≤ x ^ 2 := by
  sorry
"""

CHAIN_PROBLEM = """import Mathlib

namespace Foo
def g : ℕ := 1
open Nat in
set_option maxHeartbeats 400000 in
theorem Bar.thm (x : ℕ) : x + g = g + x := by
  sorry
end Foo
"""


def _module(problem_text: str, candidate_text: str):
    p = parse_source(problem_text, "lean")
    cand, hs, err = locate(p, candidate_text, lenient=True)
    assert cand is not None, err
    return p, build_candidate_module(p, candidate_text, hs, NONCE)


# --- generated text ----------------------------------------------------------------------------


def test_reference_goes_after_preamble_before_helpers():
    cand = PROBLEM.replace("theorem thm", "lemma helper : True := trivial\n\ntheorem thm").replace(
        "sorry", "positivity"
    )
    _p, m = _module(PROBLEM, cand)
    ref = f"theorem __prover_reference_{NONCE} (x : ℝ) : 0 ≤ x ^ 2 := sorry\n"
    assert m.text == cand.replace("lemma helper", ref + "lemma helper")
    lines = m.text.split("\n")
    assert lines[m.ref_line - 1] == ref.rstrip("\n")
    assert m.first_line == m.ref_line == 5 and m.n_lines == 1
    # lines after the insertion map back to the candidate's numbering
    assert m.candidate_line(6) == 5 and m.candidate_line(4) == 4
    assert m.inserted(5) and not m.inserted(6)


def test_reference_copies_trailing_in_modifiers_and_namespace_prefix():
    cand = CHAIN_PROBLEM.replace("  sorry", "  omega")
    p, m = _module(CHAIN_PROBLEM, cand)
    assert reference_names(p, NONCE) == (
        f"Bar.__prover_reference_{NONCE}",
        ["Foo", "Bar", f"__prover_reference_{NONCE}"],
        ["Foo", "Bar", "thm"],
    )
    want = (
        "def g : ℕ := 1\n"
        "open Nat in\nset_option maxHeartbeats 400000 in\n"
        f"theorem Bar.__prover_reference_{NONCE} (x : ℕ) : x + g = g + x := sorry\n"
        "open Nat in\nset_option maxHeartbeats 400000 in\ntheorem Bar.thm"
    )
    assert want in m.text
    assert m.first_line == 5 and m.n_lines == 3 and m.ref_line == 7


def test_helper_wedged_into_the_in_chain_keeps_reference_in_problem_context():
    # The helper steals `open Nat in`; the reference still gets both modifiers.
    cand = CHAIN_PROBLEM.replace("open Nat in\n", "open Nat in\nlemma h : True := trivial\n").replace(
        "  sorry", "  omega"
    )
    _p, m = _module(CHAIN_PROBLEM, cand)
    assert (
        "def g : ℕ := 1\nopen Nat in\nset_option maxHeartbeats 400000 in\n"
        f"theorem Bar.__prover_reference_{NONCE} (x : ℕ) : x + g = g + x := sorry\n"
        "open Nat in\nlemma h : True := trivial\nset_option maxHeartbeats 400000 in\ntheorem Bar.thm"
    ) in m.text


def test_root_names_universes_and_guillemets():
    p = parse_source("namespace A\ntheorem _root_.B.t : True := sorry\nend A\n", "lean")
    assert reference_names(p, NONCE) == (
        f"_root_.B.__prover_reference_{NONCE}",
        ["B", f"__prover_reference_{NONCE}"],
        ["B", "t"],
    )
    p = parse_source("universe u\ntheorem t.{v} (α : Sort v) : α → α := sorry\n", "lean")
    _, m = _module(p.text, p.text.replace(":= sorry", ":= id"))
    assert f"theorem __prover_reference_{NONCE}.{{v}} (α : Sort v) : α → α := sorry\n" in m.text
    p = parse_source("theorem «my.thm» : True := sorry\n", "lean")
    assert reference_names(p, NONCE)[2] == ["my.thm"]
    assert name_components("Foo.«a b».c") == ["Foo", "a b", "c"]
    with pytest.raises(ValueError):
        name_components("Foo..c")


def test_query_text():
    q = build_query(["Foo", "__prover_reference_x"], ["Foo", 'we"ird'], NONCE)
    assert q.startswith("import Candidate\n")
    assert f'"@@{NONCE}"' in q
    assert '(Name.mkStr (Name.mkStr Name.anonymous "Foo") "we\\"ird")' in q
    assert "instantiateTypeLevelParams" in q and "collectAxioms thmName" in q
    assert "collectAxioms refName" not in q  # the reference's sorry never counts
    assert "getModuleIdx? `Candidate" in q and "fromCandidate thmName" in q  # both from the candidate
    assert "let mut todo : Array Name := #[thmName]" in q  # our own walk starts at the target only
    assert q.count(NONCE) == 1  # the tag is built once, from one literal
    assert lean_string('a\\b"\n') == '"a\\\\b\\"\\u{a}"'
    assert lean_name([]) == "Name.anonymous"


# --- the parser ----------------------------------------------------------------------------------


def _check(*texts: str, error: str | None = None, tail: str = "") -> FileCheck:
    msgs = [Message(severity=Severity.INFO, text=t, pos=Pos(line=4, column=0)) for t in texts]
    if error:
        msgs.append(Message(severity=Severity.ERROR, text=error, pos=Pos(line=4, column=0)))
    return FileCheck(returncode=1 if error else 0, messages=tuple(msgs), stderr_tail=tail)


def _answer(stmt: str = "SAME", axioms: str = "propext, Quot.sound", nonce: str = NONCE) -> str:
    return f"@@{nonce}:STATEMENT:{stmt}@@\n@@{nonce}:AXIOMS:[{axioms}]@@\n@@{nonce}:END@@"


def test_parse_match_and_mismatch():
    a = parse_query_output(_check(_answer()), NONCE)
    assert a.problem == "" and a.statement == "SAME" and a.axioms == ("propext", "Quot.sound")
    b = parse_query_output(_check(_answer("DIFFERENT", "")), NONCE)
    assert b.statement == "DIFFERENT" and b.axioms == ()


def test_parse_rejects_forged_duplicate_missing_and_errors():
    # a line with another nonce (what a candidate could print) is invisible
    a = parse_query_output(_check(_answer(nonce="ffffffffffffffff")), NONCE)
    assert a.statement is None and "no trustworthy" in a.problem
    # our DIFFERENT plus a forged SAME with the right nonce: ambiguous -> no answer
    b = parse_query_output(_check(_answer("DIFFERENT"), f"@@{NONCE}:STATEMENT:SAME@@"), NONCE)
    assert b.statement is None and "STATEMENT=2" in b.problem
    c = parse_query_output(_check(_answer().rsplit("\n", 1)[0]), NONCE)  # no END
    assert c.statement is None
    d = parse_query_output(_check(_answer(), error="unknown constant"), NONCE)
    assert d.statement is None and "unknown constant" in d.problem
    e = parse_query_output(_check(), NONCE)
    assert e.statement is None
    # an answer printed as plain stdout (older #eval) is found in the non-JSON tail
    f = parse_query_output(_check(tail=_answer()), NONCE)
    assert f.statement == "SAME"


# --- the flow, with a stand-in lake ------------------------------------------------------------

FAKE_LAKE = r"""
import json, os, re, sys
args = sys.argv[1:]
assert args[:3] == ["env", "lean", "--json"], args
path = args[-1]
text = open(path, encoding="utf-8").read()
def emit(sev, line, data, old=False):
    d = {"pos": {"line": line, "column": 0}, "severity": sev, "data": data}
    if not old:
        d.update({"fileName": path, "endPos": None, "caption": "", "kind": "x", "isSilent": False})
    print(json.dumps(d), flush=True)
if "-o" in args:  # the candidate's build
    out = args[args.index("-o") + 1]
    rc = 0
    for i, line in enumerate(text.split("\n"), 1):
        if "ERR" in line:
            emit("error", i, "unknown identifier 'ERR'"); rc = 1
        if re.search(r"\bsorry\b", line):
            emit("warning", i, "declaration uses 'sorry'")
    if "FORGE" in text:  # the candidate prints a perfect answer during its own build
        nonce = re.search(r"__prover_reference_([0-9a-f]+)", text).group(1)
        emit("information", 1, f"@@{nonce}:STATEMENT:SAME@@\n@@{nonce}:AXIOMS:[]@@\n@@{nonce}:END@@")
    if rc == 0:
        open(out, "w", encoding="utf-8").write(text)
    sys.exit(rc)
assert text.startswith("import Candidate\n")
olean = os.path.join(os.environ["LEAN_PATH"].split(":")[-1], "Candidate.olean")
cand = open(olean, encoding="utf-8").read()
nonce = re.search(r'"@@([0-9a-f]+)"', text).group(1)
names = re.findall(r"let (refName|thmName) : Name := (.*)", text)
leaf = {k: re.findall(r'"((?:[^"\\]|\\.)*)"\)', v)[-1] for k, v in names}
if "QFAIL" in cand:
    emit("error", 4, "unknown constant 'Lean.collectAxioms'"); sys.exit(1)
if "QSILENT" in cand:
    sys.exit(0)
if not re.search(r"^theorem [\w.]*" + re.escape(leaf["refName"]) + r"\b", cand, re.M):
    stmt = "MISSING_REFERENCE"
elif not re.search(r"^theorem [\w.]*" + re.escape(leaf["thmName"]) + r"\b", cand, re.M):
    stmt = "MISSING_TARGET"
else:
    stmt = "DIFFERENT" if "MEANING_CHANGED" in cand else "SAME"
body = cand.split("theorem " , 2)[-1]
axioms = ["propext", "Classical.choice", "Quot.sound"]
if re.search(r"\bsorry\b", body):
    axioms.append("sorryAx")
if "NATIVE" in cand:
    axioms.append("Lean.ofReduceBool")
msg = f"@@{nonce}:STATEMENT:{stmt}@@\n@@{nonce}:AXIOMS:[{', '.join(axioms)}]@@\n@@{nonce}:END@@"
if "QFORGE" in cand:  # import-time code printing a second, favourable answer
    emit("information", 1, f"@@{nonce}:STATEMENT:SAME@@")
if "PLAIN" in cand:
    print(msg, flush=True)
else:
    emit("information", 4, msg, old="OLDFMT" in cand)
"""


@pytest.fixture
def fake_env(tmp_path, monkeypatch):
    project = tmp_path / "project"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.27.0\n")
    lake = tmp_path / "bin" / "lake"
    lake.parent.mkdir()
    lake.write_text(f"#!{sys.executable}\n{FAKE_LAKE}")
    lake.chmod(0o755)
    checker = LeanChecker(
        LeanCheckerConfig(project_dir=str(project), lake=str(lake), isolate_network=False, memory_bytes=None)
    )
    return checker, project, lake


def _verify(checker, candidate: str, problem: str = PROBLEM):
    return verify_lean(parse_source(problem, "lean"), candidate, checker=checker, timeout=60)


HONEST = PROBLEM.replace("  sorry", "  positivity")


def test_match_and_whitelisted_axioms_accept(fake_env):
    checker, _, _ = fake_env
    v = _verify(checker, HONEST)
    assert v.accepted and v.stage == "accepted", v.reason
    assert v.details["axioms"] == ["propext", "Classical.choice", "Quot.sound"]
    for marker in ("OLDFMT", "PLAIN"):  # both message shapes, and a plain stdout answer
        v = _verify(checker, HONEST + f"-- {marker}\n")
        assert v.accepted, (marker, v.reason)


def test_mismatch_rejects(fake_env):
    checker, _, _ = fake_env
    v = _verify(checker, HONEST + "-- MEANING_CHANGED\n")
    assert not v.accepted and v.stage == "statement" and "different" in v.reason


@pytest.mark.parametrize(
    "marker,stage,words",
    [
        ("QFAIL", "statement", "query failed"),
        ("QSILENT", "statement", "no trustworthy"),
        ("QFORGE", "statement", "no trustworthy"),
        ("NATIVE", "axioms", "Lean.ofReduceBool"),
    ],
)
def test_query_problems_reject(fake_env, marker, stage, words):
    checker, _, _ = fake_env
    v = _verify(checker, HONEST + f"-- {marker}\n")
    assert not v.accepted and v.stage == stage and words in v.reason, v.reason


def test_forged_answer_in_candidate_build_is_ignored(fake_env):
    checker, _, _ = fake_env
    v = _verify(checker, HONEST + "-- FORGE MEANING_CHANGED\n")
    assert not v.accepted and v.stage == "statement"


def test_reference_sorry_ignored_candidate_sorry_rejected(fake_env):
    checker, _, _ = fake_env
    assert _verify(checker, HONEST).accepted  # the reference's own `sorry` warning is ignored
    v = _verify(checker, PROBLEM)  # the candidate's sorry is not
    assert not v.accepted and v.stage == "compile" and "line 6" in v.reason
    err = _verify(checker, PROBLEM.replace("  sorry", "  exact ERR"))
    assert not err.accepted and err.stage == "compile" and "line 6" in err.reason


def test_unsupported_targets_rejected(fake_env):
    checker, _, _ = fake_env
    private = PROBLEM.replace("theorem thm", "private theorem thm")
    v = _verify(checker, private.replace("  sorry", "  positivity"), problem=private)
    assert not v.accepted and "private" in v.reason


def test_verify_end_to_end_through_path(fake_env, monkeypatch):
    _checker, project, lake = fake_env
    monkeypatch.setenv("PROVER_LEAN_PROJECT", str(project))
    monkeypatch.setenv("PATH", f"{lake.parent}:{os.environ.get('PATH', '')}")
    import lean_tools.lean.checker as lc

    orig = lc.LeanChecker.__init__

    def init(self, config=None):  # no network namespace in this test container
        orig(self, config or LeanCheckerConfig(isolate_network=False, memory_bytes=None))

    monkeypatch.setattr(lc.LeanChecker, "__init__", init)
    v = verify(PROBLEM, HONEST, "lean", timeout=60)
    assert v.accepted, v.reason
    v = verify(PROBLEM, HONEST + "-- MEANING_CHANGED\n", "lean", timeout=60)
    assert not v.accepted and v.stage == "statement"
    assert re.search(r"elaborated statement of thm is different", v.reason)


def test_json_shape_of_fake_is_the_documented_one():
    # guard: the stand-in prints the fields parse_json_lines reads
    line = json.dumps({"pos": {"line": 1, "column": 0}, "severity": "information", "data": "x"})
    from lean_tools.lean.checker import parse_json_lines

    msgs, other = parse_json_lines(line)
    assert msgs[0].severity is Severity.INFO and other == ()
