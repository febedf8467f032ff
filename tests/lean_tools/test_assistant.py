"""The ProofAssistant objects without a proof assistant: lookup, rendering, tactic-mode text,
the capabilities one of them lacks. Sessions and checkers are exercised by the Rocq tests."""

import pytest

from lean_tools.assistant import ASSISTANTS, LEAN, ROCQ, assistant, assistant_for_path


def test_lookup_by_name_and_suffix_with_clear_errors():
    assert assistant("rocq") is ROCQ and assistant("lean") is LEAN
    assert assistant_for_path("a/b.v") is ROCQ and assistant_for_path("x.lean") is LEAN
    with pytest.raises(ValueError, match="unknown proof assistant 'Coq': expected 'rocq' or 'lean'"):
        assistant("Coq")
    with pytest.raises(ValueError, match=r"unknown file type \(suffix '.txt'\)"):
        assistant_for_path("notes.txt")
    assert {a.suffix for a in ASSISTANTS.values()} == {".v", ".lean"}


def test_every_assistant_offers_the_same_prompt_words():
    keys = {frozenset(a.prompt_values) for a in ASSISTANTS.values()}
    assert len(keys) == 1 and "fence" in next(iter(keys))
    with pytest.raises(TypeError):
        ROCQ.prompt_values["fence"] = "x"  # type: ignore[index]


def test_rendering_round_trips_through_the_one_parser():
    for pa, decl in ((ROCQ, "Lemma two : 1 + 1 = 2."), (LEAN, "lemma two : 1 + 1 = 2")):
        done = pa.render(decl, "simp" if pa is LEAN else "reflexivity.")
        holed = pa.render_hole(decl)
        [d_done] = pa.declarations(done)
        [d_holed] = pa.declarations(holed)
        assert d_done.name == d_holed.name == "two"
        assert not pa.has_hole(d_done.proof) and pa.has_hole(d_holed.proof)
        assert pa.proof_opener in done
    assert ROCQ.render("Lemma a : True.", "Proof. exact I. Qed.") == "Lemma a : True.\nProof.\n exact I.\nQed.\n"
    assert LEAN.render("lemma a : True", ":= by\n    trivial") == "lemma a : True := by\n  trivial\n"
    assert ROCQ.has_hole("(* admit *) exact I.") is False and LEAN.has_hole("-- sorry\n  simp") is False


def test_open_proofs_and_declaration_text():
    assert ROCQ.render_open("Lemma a : True.", "") == "Lemma a : True.\nProof.\n\n"
    assert LEAN.render_open("lemma a : True", "constructor") == "lemma a : True := by\n  constructor\n  sorry\n"
    sf = ROCQ.parse("Require Import Arith.\nTheorem t (n : nat) : n = n.\nAdmitted.\n")
    assert ROCQ.declaration_text(sf) == "Theorem t (n : nat) : n = n."
    sf = LEAN.parse("import Mathlib\n\ntheorem t (n : ℕ) : n = n := by\n  sorry\n")
    assert LEAN.declaration_text(sf) == "theorem t (n : ℕ) : n = n"
    assert ROCQ.normalize_source("From Stdlib Require Import Arith.") == "From Coq Require Import Arith."
    assert LEAN.normalize_source("From Stdlib") == "From Stdlib"


def test_tactic_mode_text():
    assert ROCQ.wrap_tactic("lia", 0.3) == "Timeout 1 (lia)." and ROCQ.wrap_tactic("nra", 2.5) == "Timeout 3 (nra)."
    assert LEAN.wrap_tactic("omega", 2.0) == "omega"
    assert ROCQ.open_statement("  Lemma a : True.\n") == "Lemma a : True."
    assert LEAN.open_statement("theorem a : True := by") == LEAN.open_statement("theorem a : True") == "theorem a : True := by\n  sorry"
    assert ROCQ.proof_line("lia") == "lia." and LEAN.proof_line("omega") == "omega"
    assert "Lia" in ROCQ.search_imports and LEAN.search_imports == ""


def test_capabilities_one_assistant_lacks_are_explicit():
    assert ROCQ.imports_text(("Coq.Lia", "Coq.Lra", "Foo")) == "From Coq Require Import Lia Lra.\nRequire Import Foo."
    assert LEAN.imports_text(("Coq.Lia",)) == ""
    assert LEAN.library_search_tactics == ("exact?", "apply?") and ROCQ.library_search_tactics == ()
    assert ROCQ.search_query_error("(_ + _ = _)") is None
    assert "empty" in (ROCQ.search_query_error("") or "")
    assert "one Search pattern" in (ROCQ.search_query_error("Nat.add. Require Foo") or "")
    assert "does not lex" in (ROCQ.search_query_error('"open') or "")
    assert LEAN.search_query_error("anything") is None
    assert ROCQ.hammer == "CoqHammer" and LEAN.hammer == ""
