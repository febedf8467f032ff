"""Regression tests for the red-team findings (lexer agreement, option chains, `...`, defaults).

Each test names the bypass it pins down; the cheats themselves live in
tests/data/soundness/{rocq,lean}/cheats/ (c38-c48, l28-l42).
"""

from __future__ import annotations

import pytest
from soundness_suite import DATA

from lean_tools.parsing import parse_source
from lean_tools.rocq.parser import rocq_sentences
from lean_tools.soundness import STDLIB_REQUIRES, verify
from lean_tools.soundness.lean_screens import screen_lean
from lean_tools.soundness.rocq_screens import allowed_require, screen_rocq, sentence_head
from lean_tools.source import mask, strip_comments


@pytest.mark.parametrize(
    "text",
    [
        'def «a"» : ℕ := 0\nlocal notation x\ndef «b"» : ℕ := 0\n',  # quote inside «»
        "def «--» : ℕ := 0 local notation x\n",  # «--» is no line comment
        "have «/-» : True := trivial\nlocal notation x\nhave «-/» : True := trivial\n",
        "def c : ℕ × Char := Prod.mk 1'\"'\nlocal notation x\ndef d : Char × ℕ := Prod.mk '\"'1\n",
    ],
)
def test_lean_mask_keeps_code_lean_sees(text):
    """The masker lexes «...» and char literals as Lean does, so hidden code stays visible."""
    assert "notation" in mask(text, "lean")
    assert "notation" in strip_comments(text, "lean")


def test_lean_char_literals_and_primes_still_masked():
    m = mask("f '\"' h' \"s\" x'\n", "lean")
    assert '"' not in m and "h'" in m and "x'" in m
    assert mask("'\\\\' \"x\" y", "lean").strip() == "y"


def test_lean_ambiguous_lexing_is_flagged_but_plain_names_are_not():
    rules = {f.rule for f in screen_lean("  exact (fun _ => trivial) 1'\"'\n")}
    assert "lean.lexing" in rules
    assert not screen_lean("  exact «my helper» h' 'a' \"s\"\n")


def test_lean_set_option_chain_checks_every_option():
    bad = "  set_option maxHeartbeats 400000 in set_option debug.skipKernelTC true in\n  rfl\n"
    assert "lean.set_option" in {f.rule for f in screen_lean(bad)}
    assert not screen_lean("  set_option maxHeartbeats 400000 in\n  set_option maxRecDepth 99 in\n  rfl\n")


def test_lean_helpers_column0_lines_must_be_declarations():
    ok = "def f : ℕ → ℕ\n| 0 => 0\n| (k + 1) => f k\n\n@[simp] private theorem t : f 0 = 0 := rfl\n"
    assert not screen_lean(ok, role="helpers")
    bad = ok + "\nsome_future_command ℕ\n"
    assert any("column 0" in f.message for f in screen_lean(bad, role="helpers"))


def test_rocq_ellipsis_ends_a_sentence():
    text = "Lemma x : True.\nProof.\n  exact I...\nSet Printing All.\nQed.\n"
    sents = [text[s.start : s.end] for s in rocq_sentences(mask(text, "rocq"))]
    assert "exact I..." in sents and "Set Printing All." in sents
    notation = 'Notation "[ x ; .. ; y ]" := (cons x .. (cons y nil) ..).'
    assert [notation[s.start : s.end] for s in rocq_sentences(notation)] == [notation]


def test_rocq_head_behind_unknown_selector():
    assert sentence_head("1-3: Set Printing All.") == "Set"
    assert sentence_head("1-2: lia.") == "lia"
    assert "rocq.command" in {f.rule for f in screen_rocq("1-3: Set Printing All.")}


def test_rocq_native_prefix_banned():
    assert "rocq.banned" in {f.rule for f in screen_rocq("native_cast_no_check (eq_refl 1).")}
    assert not screen_rocq("vm_compute. reflexivity.")


def test_stdlib_requires_spellings():
    for s in (
        "Require Import Lra.",
        "From Coq Require Import Lia Lra Psatz.",
        "Require Import Coq.micromega.Lqa.",
        "From Coq.setoid_ring Require Import Field.",
        "Require Import ZArith Reals Arith Ring.",
    ):
        assert allowed_require(s, STDLIB_REQUIRES), s
    for s in (
        "Require Import Classical.",
        "From mathcomp Require Import Lia.",
        "From Coq Require Import Logic.Classical_Prop.",
        'Require Import Lra "Classical".',
    ):
        assert not allowed_require(s, STDLIB_REQUIRES), s


@pytest.mark.rocq
def test_rocq_default_require_cannot_rebind_the_statement():
    """`Require Import Reals` in a helper turns the false nat statement `sqrt 3 <> sqrt 2` into a
    true real one; coqc compiles it, the constr_eq statement check rejects it."""
    problem = (DATA / "rocq" / "problems" / "nat_sqrt_ne.v").read_text(encoding="utf-8")
    cheat = (DATA / "rocq" / "cheats" / "c41_require_rebinds_sqrt.v").read_text(encoding="utf-8")
    assert verify(problem, cheat, "rocq", static_only=True, allowed_requires=STDLIB_REQUIRES).stage == "candidate"
    v = verify(problem, cheat, "rocq", allowed_requires=STDLIB_REQUIRES)
    assert not v.accepted and v.stage == "statement", v.reason


@pytest.mark.rocq
def test_cli_allows_stdlib_require_in_helpers_by_default(tmp_path, capsys):
    from prover.commands.check import main

    problem = DATA / "rocq" / "problems" / "mathd_algebra_141.v"
    cand = parse_source(problem.read_text(encoding="utf-8"), "rocq").render(
        "nra.", helpers="Require Import Lra Psatz.\nLemma sq_id (x : R) : x ^ 2 = x * x.\nProof. ring. Qed."
    )
    c = tmp_path / "c.v"
    c.write_text(cand, encoding="utf-8")
    assert main([str(problem), str(c)]) == 0, capsys.readouterr().out
    capsys.readouterr()
    assert main([str(problem), str(c), "--no-default-requires", "--static-only"]) == 1
    assert "Require" in capsys.readouterr().out


def test_unterminated_attribute_run_is_rejected():
    """A 400 KB run of `@[x` lines made the Lean declaration regex quadratic (minutes); attribute
    bodies are now read at most 2,000 characters far (benchmarks/screens_scaling.py times it)."""
    problem = (DATA / "lean" / "problems" / "false_claim.lean").read_text(encoding="utf-8")
    cand = problem.replace("theorem false_claim", "@[x\n" * 100_000 + "theorem false_claim")
    v = verify(problem, cand, "lean")
    assert not v.accepted and v.stage in ("candidate", "screen")
