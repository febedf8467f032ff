"""Which declarations of a Rocq file open a proof, and so which holes ``find_holes`` reports: a
declaration with its own ``:=`` body opens none, ``Existing Instance`` declares nothing, names
may be Unicode, a ``:=`` of a notation is no body where Rocq takes none, and prefixes, ``Let``,
``Fixpoint``, ``Program`` and mutual declarations are read as Rocq reads them. ``VALID`` and
``HOARE`` are checked with a real ``coqc``, before and after their holes are filled."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from lean_tools.rocq.holes import fill, find_holes, hole_labelled
from lean_tools.rocq.walk import Scope

VALID = """\
(* α ∣ β: text before the holes *)
Require Import Arith.
Notation "a ∣ b" := (Nat.divide a b) (at level 70).
Section A.
Example e : 1 ∣ 1 := Nat.divide_refl 1.
End A.
Section B.
Lemma after : 2 ∣ 4.
Proof. exists 2. admit. Admitted.
End B.
Class C := { fld : nat }.
#[export] Instance ci : C := {| fld := 1 |}.
#[export] Instance cj : C := { fld := 2 }.
Definition di : C := {| fld := 3 |}.
#[export] Existing Instance di.
#[export] Existing Instances di ci.
Module Mα.
  Section Sβ.
    Variable n : nat.
    Example in_sec : (let y := n in y) = n := eq_refl.
    Lemma β' : n ∣ n * 1.
    Proof. Admitted.
    Let lt : n ∣ n.
    Proof. Admitted.
  End Sβ.
  Definition f' (x : nat) : nat.
  Proof. Admitted.
  Lemma γ : let y := 1 in y ∣ 2.
  Admitted.
End Mα.
Fixpoint fx (n : nat) : nat.
Admitted.
Fixpoint ev (n : nat) : bool with od (n : nat) : bool.
Admitted.
Lemma mev : forall n, n + 0 = n with mev2 : forall n, 0 + n = n.
Proof.
  - intros n. admit.
  - intros n. reflexivity.
Admitted.
Let top_let : True.
Proof. Admitted.
Local Lemma ll : True. Proof. Admitted.
#[local] Lemma al : True. Proof. Admitted.
#[global] Instance gi : C. Proof. Admitted.
Global Instance gj : C. Proof. exact {| fld := 4 |}. Defined.
Require Import Program.
Program Definition pd : { n : nat | n = 1 } := 0.
Next Obligation. Admitted.
Program Lemma pl : 1 ∣ 1.
Proof. Admitted.
Lemma uses : True.
Proof.
  Example inner : 1 = 1 := eq_refl.
  admit.
Admitted.
(* γ ∣ δ: text after the holes *)
"""

MA = Scope(kind="module", name="Mα")
SB = Scope(kind="section", name="Sβ")
EXPECTED = {  # label: (keyword, kind, scopes, fillable)
    "after#admit1": ("Lemma", "admit", (Scope(kind="section", name="B"),), True),
    "Mα.β'": ("Lemma", "admitted", (MA, SB), True),
    "Mα.lt": ("Let", "admitted", (MA, SB), False),
    "Mα.f'": ("Definition", "admitted", (MA,), False),
    "Mα.γ": ("Lemma", "admitted", (MA,), True),
    "fx": ("Fixpoint", "admitted", (), False),
    "ev": ("Fixpoint", "admitted", (), False),
    "mev#admit1": ("Lemma", "admit", (), True),
    "top_let": ("Let", "admitted", (), False),
    "ll": ("Lemma", "admitted", (), True),
    "al": ("Lemma", "admitted", (), True),
    "gi": ("Instance", "admitted", (), False),
    "pl": ("Lemma", "admitted", (), True),
    "uses#admit1": ("Lemma", "admit", (), True),
}
SCRIPTS = {
    "after#admit1": "reflexivity.",
    "Mα.β'": "apply Nat.divide_factor_l.",
    "Mα.f'": "exact x.",
    "Mα.γ": "intros y. exists 2. reflexivity.",
    "fx": "exact 0.",
    "mev#admit1": "apply Nat.add_0_r.",
    "top_let": "exact I.",
    "ll": "exact I.",
    "al": "exact I.",
    "gi": "exact {| fld := 5 |}.",
    "pl": "exists 1. reflexivity.",
    "uses#admit1": "exact I.",
}
"""A proof of each hole of ``VALID`` but ``Mα.lt`` and ``ev`` (fillable or not: ``fill`` writes any)."""


def test_the_holes_of_each_kind_of_declaration() -> None:
    holes = find_holes(VALID)
    assert {h.label: (h.keyword, h.kind, h.scopes, h.fillable) for h in holes} == EXPECTED
    assert [h.label for h in holes] == list(EXPECTED)  # file order
    by = {h.label: h for h in holes}
    assert by["ev"].mutual == ("od",) and by["mev#admit1"].mutual == ("mev2",) and by["mev#admit1"].admitted_lemma
    assert "Let inside a section" in by["Mα.lt"].unfillable_reason
    assert "admitted Fixpoint" in by["ev"].unfillable_reason and "admitted Instance" in by["gi"].unfillable_reason
    assert all(h.is_definition == (h.keyword in ("Definition", "Let", "Fixpoint", "Instance")) for h in holes)


def test_offsets_index_the_declaration_and_the_replaced_sentence() -> None:
    for h in find_holes(VALID):
        decl = VALID[h.decl_start : h.decl_end]
        assert re.match(rf"(#\[\w+\] |Local |Global |Program )?{h.keyword} {re.escape(h.name)} ", decl), decl
        assert decl.endswith(".") and VALID[h.decl_end - 1] == "."
        assert VALID[h.end_start : h.end_end] == ("Admitted." if h.kind == "admitted" else "admit.")
        assert VALID[h.term_start : h.term_end] == "Admitted."


def test_filling_changes_only_the_bodies() -> None:
    text = VALID
    for label, script in SCRIPTS.items():
        h = hole_labelled(text, label)
        filled = fill(text, h, script)
        start = h.script_start if h.kind == "admitted" else h.end_start
        assert filled[:start] == text[:start]
        assert filled[len(filled) - (len(text) - h.term_end) :] == text[h.term_end :]
        text = filled
    assert text.startswith("(* α ∣ β: text before the holes *)\nRequire Import Arith.\n")
    assert text.endswith("(* γ ∣ δ: text after the holes *)\n")
    assert [h.label for h in find_holes(text)] == ["Mα.lt", "ev"]


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        # a term-mode declaration opens no proof: the lemma after it and the scopes between are read
        ("Example e : 1 = 1 := eq_refl.\nLemma after : True. Proof. admit. Admitted.\n", ["after#admit1"]),
        ("Module M.\nExample e : 1 = 1 := eq_refl.\nEnd M.\nLemma after : True.\nAdmitted.\n", ["after"]),
        ("Existing Instance i.\nModule M.\nLemma after : True.\nAdmitted.\nEnd M.\n", ["M.after"]),
        ("Instance i : C := {| f := (fun x => x) |}.\nLemma after : True.\nAdmitted.\n", ["after"]),
        ("Program Definition d : T := t.\nNext Obligation. Admitted.\nLemma after : True.\nAdmitted.\n", ["after"]),
        # Rocq 8.16 rejects `Lemma x : T := t.`: a := in a lemma's sentence is a notation's, and the
        # lemma opens a proof (here cut by the next lemma)
        ("Lemma x : True := I.\nLemma after : True.\nAdmitted.\n", []),
        ("Lemma h : {{ True }} X := 1 {{ True }}.\nProof. admit. Admitted.\n", ["h#admit1"]),
        ("#[local] Theorem h : {{ True }} X := 1 {{ True }}.\nAdmitted.\n", ["h"]),
        # an Example or a definition followed by Proof opens one, whatever := its sentence holds
        ("Example ex : {{ True }} 1 := 2 {{ True }}.\nProof. admit. Admitted.\n", ["ex#admit1"]),
        ("Definition d : {{ True }} 1 := 2 {{ True }}.\nProof using. Admitted.\n", ["d"]),
        ("Example e : {{ True }} 1 := 2 {{ True }} := t.\nLemma after : True.\nAdmitted.\n", ["after"]),
        ("Lemma a : True.\nProof.\nExample ex : {{ True }} 1 := 2 {{ True }}.\nProof. Admitted.\n", []),
        # limit: without Proof, an Example whose notation holds a := is read as carrying its body
        ("Example ex : {{ True }} 1 := 2 {{ True }}.\nAdmitted.\nLemma after : True.\nAdmitted.\n", ["after"]),
        # a := of a let, a binder or a record in the statement is no body
        ("Lemma l : let y := 1 in y = 1.\nAdmitted.\n", ["l"]),
        ("Definition d (x : nat := 1) : nat.\nAdmitted.\n", ["d"]),
        ("Example r : {| f := 1 |} = {| f := 1 |}.\nAdmitted.\n", ["r"]),
        ("Definition d : nat := let fix f (n : nat) := n in f 0.\nLemma after : True.\nAdmitted.\n", ["after"]),
        # names follow Rocq's identifier rule
        ("Module Mα.\nLemma α_1' : True.\nAdmitted.\nEnd Mα.\nTheorem ℕ_ok : True.\nAdmitted.\n", ["Mα.α_1'", "ℕ_ok"]),
        ("Lemma ∣x : True.\nAdmitted.\n", []),  # a symbol starts no identifier
        # a proof ends at the next declaration that opens one, not at a term-mode one
        ("Lemma a : True.\nProof.\nDefinition d := 1.\nadmit.\nAdmitted.\n", ["a#admit1"]),
        ("Lemma a : True.\nProof.\nLemma b : True.\nAdmitted.\n", []),
    ],
)
def test_which_declarations_open_a_proof(text: str, labels: list[str]) -> None:
    assert [h.label for h in find_holes(text)] == labels


HOARE = """\
Definition hoare (P : Prop) (c d : nat) (Q : Prop) : Prop := P -> Q.
Notation "{{ P }} c := d {{ Q }}" := (hoare P c d Q) (at level 90, c at next level, d at next level).
Example eb : {{ True }} 1 := 2 {{ True }} := fun _ => I.
Example ex : {{ True }} 1 := 2 {{ True }}.
Proof. unfold hoare. admit. Admitted.
Lemma hl : forall n : nat, {{ n = n }} n := 0 {{ True }}.
Proof. intros n. admit. Admitted.
Definition dh : {{ 1 = 1 }} 0 := 1 {{ True }}.
Proof. intros _. exact I. Defined.
Theorem ht : {{ True }} 3 := 4 {{ True }}.
Admitted.
Lemma after : True.
Proof. admit. Admitted.
"""
"""Hoare triples whose notation holds a ``:=``, in a term-bodied ``Example``, in ``Example``s,
lemmas and a definition in proof mode, then a lemma after them."""
HOARE_SCRIPTS = {"ex#admit1": "intros _. exact I.", "hl#admit1": "intros _. exact I.", "ht": "intros _. exact I.",
                 "after#admit1": "exact I."}


def test_a_notation_with_its_own_assignment_is_no_body() -> None:
    assert [h.label for h in find_holes(HOARE)] == list(HOARE_SCRIPTS)


def _coqc(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    coqc = shutil.which("coqc")
    assert coqc is not None
    path = tmp_path / f"{name}.v"
    path.write_text(text, encoding="utf-8")
    return subprocess.run([coqc, path.name], check=False, cwd=tmp_path, capture_output=True, text=True, timeout=120)


@pytest.mark.rocq
def test_the_file_compiles_before_and_after_its_holes_are_filled(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "holes_before", VALID)
    assert done.returncode == 0, done.stderr
    text = VALID
    for label, script in SCRIPTS.items():
        text = fill(text, hole_labelled(text, label), script)
    queries = "".join(f"Print Assumptions {n}.\n" for n in ("Mα.γ", "fx", "uses", "mev", "mev2", "top_let"))
    done = _coqc(tmp_path, "holes_after", text + queries)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Closed under the global context") == 6


@pytest.mark.rocq
def test_the_hoare_triples_compile_before_and_after_their_holes_are_filled(tmp_path: Path) -> None:
    done = _coqc(tmp_path, "hoare_before", HOARE)
    assert done.returncode == 0, done.stderr
    text = HOARE
    for label, script in HOARE_SCRIPTS.items():
        text = fill(text, hole_labelled(text, label), script)
    assert find_holes(text) == []
    done = _coqc(tmp_path, "hoare_after", text + "Print Assumptions ex.\nPrint Assumptions hl.\nPrint Assumptions ht.\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Closed under the global context") == 3
