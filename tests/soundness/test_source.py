"""lean_tools.parsing and lean_tools.source: splitting files into header / preamble / statement / proof."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lean_tools.assistant import assistant
from lean_tools.parsing import declaration_names, declarations, parse_source
from lean_tools.rocq.parser import rocq_sentences
from lean_tools.source import ParseError, mask, normalize, segments

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "data"
"""The benchmark files bundled with the project (miniF2F, PutnamBench)."""
# Upstream files whose only theorem is named differently from the file (data errors upstream).
UPSTREAM_MISNAMED = {
    "putnam_1968_a1",
    "putnam_1970_b5",
    "putnam_1979_a6",
    "putnam_1994_b3",
}
TWO_THEOREMS = {"imo_1966_p5"}


def _check_roundtrip(sf):
    t = sf.text
    assert t[: sf.proof_start] + sf.proof + t[sf.proof_end :] == t
    assert sf.header + sf.preamble == t[: sf.decl_start]
    assert t[sf.decl_start : sf.statement_start] == sf.decl_prefix
    assert t[sf.statement_start : sf.statement_end].strip() == sf.statement


def test_every_rocq_benchmark_file_parses():
    files = sorted((BENCH / "putnambench/coq").glob("*.v")) + sorted((BENCH / "minif2f/rocq").glob("*/*.v"))
    assert len(files) >= 900
    for f in files:
        text = f.read_text(encoding="utf-8")
        if f.stem in TWO_THEOREMS:
            sf = parse_source(text, "rocq", theorem=f.stem)
        else:
            sf = parse_source(text, "rocq")
        _check_roundtrip(sf)
        if f.stem not in UPSTREAM_MISNAMED:
            assert sf.theorem_name == f.stem, f
        assert sf.proof_is_placeholder(), f
        assert sf.terminator in ("Admitted.", ""), f
        rendered = sf.render("intros. lia.")
        again = parse_source(rendered, "rocq", theorem=sf.theorem_name)
        assert again.terminator == "Qed."
        assert again.proof.strip() == "intros. lia."
        assert again.statement_text() == sf.statement_text()
        assert again.header == sf.header and again.preamble == sf.preamble


def test_every_lean_putnambench_file_parses():
    files = sorted((BENCH / "putnambench/lean4").glob("*.lean"))
    assert len(files) >= 600
    for f in files:
        sf = parse_source(f.read_text(encoding="utf-8"), "lean")
        _check_roundtrip(sf)
        assert sf.theorem_name == f.stem, f
        assert sf.header.startswith("import"), f
        assert sf.proof_is_placeholder(), (f, sf.proof)
        rendered = sf.render("by\n  simp")
        again = parse_source(rendered, "lean", theorem=sf.theorem_name)
        assert again.proof == "by\n  simp"
        assert again.statement_text() == sf.statement_text()


def test_every_minif2f_lean_statement_parses():
    rows = [json.loads(line) for line in (BENCH / "minif2f/minif2f_lean4.jsonl").open(encoding="utf-8")]
    assert len(rows) == 488
    for r in rows:
        sf = parse_source(r["header"] + r["formal_statement"] + " sorry", "lean")
        assert sf.theorem_name == r["name"]
        assert sf.proof.strip() in ("by sorry", "by\n sorry") or normalize(sf.proof, "lean") == "by sorry"
        assert "import Mathlib" in sf.header
        assert not sf.statement.endswith(":=")


def test_lean_let_in_statement_is_not_the_proof():
    text = "import Mathlib\n\ntheorem t (n : ℕ) : let m := n + 1; m > n := by\n  intro m\n  omega\n"
    sf = parse_source(text, "lean")
    assert sf.statement == "(n : ℕ) : let m := n + 1; m > n"
    assert sf.proof.startswith("by")


def test_lean_comments_strings_and_selection():
    text = (
        "import Mathlib\nopen Real\n\n/- theorem fake : False := sorry\n /- nested -/ still comment -/\n"
        'def s : String := "theorem inside : string := sorry"\n'
        "-- theorem also_fake : True := sorry\n"
        "theorem a : 1 = 1 := rfl\n\n"
        "/-- doc with := inside -/\ntheorem b (x : ℕ) : x = x := sorry\n\n"
        "theorem c : 2 = 2 := rfl\n"
    )
    sf = parse_source(text, "lean")
    assert sf.theorem_name == "b"  # the last one whose body is sorry
    assert sf.header == "import Mathlib\nopen Real\n"
    assert "def s" in sf.preamble and "theorem a" in sf.preamble
    assert sf.statement == "(x : ℕ) : x = x"
    assert sf.proof == "sorry"
    assert parse_source(text, "lean", theorem="c").proof == "rfl"
    assert "theorem c" in sf.suffix
    with pytest.raises(ParseError, match="not found"):
        parse_source(text, "lean", theorem="fake")


def test_lean_unicode_names_and_guillemets():
    text = "import Mathlib\ntheorem α₁' : (1:ℕ) ≤ 2 := by decide\ntheorem «odd name» : True := trivial\n"
    assert parse_source(text, "lean", theorem="α₁'").statement == ": (1:ℕ) ≤ 2"
    assert parse_source(text, "lean").theorem_name == "«odd name»"


def test_errors_are_clear():
    with pytest.raises(ParseError, match="no theorem"):
        parse_source("import Mathlib\ndef x := 1\n", "lean")
    with pytest.raises(ParseError, match="unterminated comment"):
        parse_source("import Mathlib\n/- open\ntheorem t : True := trivial\n", "lean")
    with pytest.raises(ParseError, match="unterminated comment"):
        parse_source("(* (* *) Theorem t : True. Admitted.", "rocq")
    with pytest.raises(ParseError, match="unterminated string"):
        parse_source('Definition s := "abc.\nTheorem t : True.\nAdmitted.\n', "rocq")
    with pytest.raises(ParseError, match="unknown language"):
        parse_source("x", "isabelle")  # type: ignore[arg-type]


def test_rocq_header_preamble_proof_terminator():
    text = (
        "Require Import Arith Lia.\nFrom Coq Require Import Reals.\nOpen Scope R_scope.\n\n"
        "(* Theorem fake : False. Admitted. *)\n"
        'Definition label := "Qed. Theorem x : False.".\n'
        "Lemma helper : 1 + 1 = 2.\nProof. reflexivity. Qed.\n\n"
        "Theorem main (n : nat) : n + 0 = n.\nProof.\n  lia.\nAdmitted.\n"
    )
    sf = parse_source(text, "rocq")
    assert sf.theorem_name == "main" and sf.decl_keyword == "Theorem"
    assert sf.header.endswith("Open Scope R_scope.\n")
    assert "Definition label" in sf.preamble and "Lemma helper" in sf.preamble
    assert sf.statement == "(n : nat) : n + 0 = n"
    assert sf.proof.strip() == "lia."
    assert sf.terminator == "Admitted."
    out = sf.render("lia.")
    assert out.endswith("Proof.\nlia.\nQed.\n")
    assert parse_source(text, "rocq", theorem="helper").terminator == "Qed."


def test_rocq_missing_proof_keyword_and_missing_terminator():
    sf = parse_source("Theorem t : True.\nexact I.\nQed.\n", "rocq")
    assert not sf.has_proof_keyword and sf.proof.strip() == "exact I."
    assert "Proof." in sf.render("exact I.")
    sf2 = parse_source("Require Import Reals.\nTheorem t : True.\nProof.\n", "rocq")
    assert sf2.terminator == "" and sf2.proof_is_placeholder()
    assert sf2.render("exact I.").rstrip().endswith("Proof.\nexact I.\nQed.")


def test_rocq_bullets_braces_and_proof_using():
    text = "Theorem t (A B : Prop) (a : A) (b : B) : A /\\ B.\nProof using.\nsplit.\n- exact a.\n- { exact b. }\nQed.\n"
    sf = parse_source(text, "rocq")
    assert sf.terminator == "Qed." and sf.has_proof_keyword
    assert "{ exact b. }" in sf.proof


def test_mask_and_normalize():
    assert mask('a (* b "*)" *) c', "rocq") == "a " + " " * 12 + " c"
    assert normalize("a  -- x\n  b /- y /- z -/ -/ c", "lean") == "a b c"
    assert normalize('x "  keep (* *) " y', "rocq") == 'x " keep (* *) " y'


def test_render_with_helpers_passes_the_candidate_rule():
    from lean_tools.soundness import check_candidate

    rocq = "Require Import Arith Lia.\n(* doc *)\nTheorem t (n m : nat) : n + m = m + n.\nProof.\nAdmitted.\n"
    sf = parse_source(rocq, "rocq")
    out = sf.render("apply h.", helpers="Lemma h (a b : nat) : a + b = b + a.\nProof. lia. Qed.")
    assert out.index("Lemma h") < out.index("Theorem t") and out.rstrip().endswith("apply h.\nQed.")
    assert check_candidate(sf, out).ok
    lean = "import Mathlib\n\n/-- doc -/\ntheorem t (n m : ℕ) : n + m = m + n := by\n  sorry\n"
    sl = parse_source(lean, "lean")
    out = sl.render("by\n  exact h n m", helpers="theorem h (a b : ℕ) : a + b = b + a := by omega")
    assert check_candidate(sl, out).ok
    assert parse_source(out, "lean", theorem="t").proof == "by\n  exact h n m"


def test_lexer_segments_and_rocq_sentences():
    text = "theorem t : c = '\"' := by -- \"x\n  simp [/- a -/ f] \"s\""
    found = [(text[s.start : s.end], s.kind) for s in segments(text, "lean") if s.kind != "code"]
    assert found == [("'\"'", "char"), ('-- "x', "comment"), ("/- a -/", "comment"), ('"s"', "string")]
    rocq = "Lemma x : True.\n  Proof. exact I...\nQed."
    assert [rocq[s.start : s.end] for s in rocq_sentences(rocq)] == ["Lemma x : True.", "Proof.", "exact I...", "Qed."]


def test_language_dispatch_agrees_with_each_parser():
    texts = {
        "lean": "theorem a : True := trivial\ntheorem b : True := sorry\n",
        "rocq": "Lemma a : True.\nProof. exact I. Qed.\nLemma b : True.\nAdmitted.\n",
    }
    for name, text in texts.items():
        pa = assistant(name)
        sf = parse_source(text, name)  # type: ignore[arg-type]
        assert sf == pa.parser.parse(text) == pa.parse(text) and sf.theorem_name == "b"
        assert [d.name for d in declarations(text, name)] == declaration_names(text, name) == ["a", "b"]  # type: ignore[arg-type]
    for listing in (declarations, declaration_names):
        with pytest.raises(ParseError, match="unknown language"):
            listing("x", "isabelle")  # type: ignore[arg-type]


def test_enclosing_namespaces_and_modules():
    lean = "import Mathlib\nnamespace Foo\nsection\nend\nnamespace Bar\ntheorem t : True := sorry\nend Bar\nend Foo\n"
    assert parse_source(lean, "lean").qualified_name == "Foo.Bar.t"
    rocq = "Module Type T.\nEnd T.\nModule M.\nSection S.\nEnd S.\nTheorem t : True.\nProof.\nAdmitted.\nEnd M.\n"
    sf = parse_source(rocq, "rocq")
    assert sf.qualified_name == "M.t" and sf.suffix.strip() == "End M."
