"""The sentence walk of a Rocq file (``lean_tools.rocq.walk``): scopes opened and closed, proofs
read by a caller's rule, offsets in characters; and that its two callers, the holes of a file
(``find_holes``) and the premises of a hole (``prover.premises``), see the same scopes."""

from __future__ import annotations

import re

import pytest

from lean_tools.rocq.holes import find_holes
from lean_tools.rocq.walk import ProofRule, Scope, Statement, read_statement, walk
from prover.premises import _walk, section_context

NESTED = """\
(* Sections (* nested: Section Fake. *) and strings do not count: "End Outer." *)
Require Import Arith.
Module Type ORDER.
  Parameter t : Type.
  Parameter le : t -> t -> Prop.
  Axiom le_refl : forall x, le x x.
End ORDER.
Module Sort (O : ORDER).
  Lemma le_refl' : forall x, O.le x x.
  Proof. exact O.le_refl. Qed.
  Lemma in_functor : forall x, O.le x x.
  Proof. Admitted.
End Sort.
Module Outer.
  Module N := Nat.
  Notation "a ∣ b" := (Nat.divide a b) (at level 70).
  Section Divides.
    Variable n : nat.
    Hypothesis n_pos : 0 < n. (* α ∣ β *)
    Lemma dvd_refl' : n ∣ n.
    Proof. exists 1. - admit. Admitted.
    Section Deeper.
      Variable m : nat.
      Lemma dvd_mul' : n ∣ n * m.
      Admitted.
    End Deeper.
  End Divides.
  Module Inner.
    Definition s := "End Inner. ∣ Section Fake.".
    Theorem inner_thm : forall k : nat, k ∣ k * 1.
    Proof. intros k. exists 1. admit. Qed.
  End Inner.
End Outer.
Lemma top : 1 ∣ 2 -> True.
Proof. Admitted.
"""

SORT = Scope(kind="functor", name="Sort")
OUTER = Scope(kind="module", name="Outer")
DIVIDES = Scope(kind="section", name="Divides")
EXPECTED = {
    "Sort.in_functor": (SORT,),
    "Outer.dvd_refl'#admit1": (OUTER, DIVIDES),
    "Outer.dvd_mul'": (OUTER, DIVIDES, Scope(kind="section", name="Deeper")),
    "Outer.Inner.inner_thm#admit1": (OUTER, Scope(kind="module", name="Inner")),
    "top": (),
}


def test_holes_and_premises_see_the_same_scopes() -> None:
    holes = find_holes(NESTED)
    assert {h.label: h.scopes for h in holes} == EXPECTED
    whole = _walk(NESTED)
    steps = {s.start: s for s in walk(NESTED)}
    for h in holes:
        assert re.match(r"(Lemma|Theorem) " + re.escape(h.name), NESTED[h.decl_start :])  # offsets in characters
        before = _walk(NESTED[: h.decl_start])
        assert tuple(before.scopes[c] for c in before.open_ids) == h.scopes
        (item,) = [it for it in whole.items if it.start == h.decl_start]
        assert tuple(whole.scopes[c] for c in item.chain) == h.scopes
        assert steps[h.decl_start].scopes == h.scopes
        assert steps[h.decl_start].prefix == h.qualified.rpartition(".")[0]


def test_premises_read_the_module_type_and_the_section_context() -> None:
    whole = _walk(NESTED)
    kinds = [(s.kind, s.name) for s in whole.scopes]
    assert kinds[:3] == [("module type", "ORDER"), ("functor", "Sort"), ("module", "Outer")]
    assert kinds[3:] == [("section", "Divides"), ("section", "Deeper"), ("module", "Inner")]
    assert whole.open_ids == ()
    (ax,) = [it for it in whole.items if it.name == "le_refl"]
    assert [whole.scopes[c].kind for c in ax.chain] == ["module type"]
    dvd_mul = next(h for h in find_holes(NESTED) if h.name == "dvd_mul'")
    assert section_context(NESTED, dvd_mul) == "Variable n : nat.\nHypothesis n_pos : 0 < n.\nVariable m : nat."


def test_scope_sentences_open_close_and_define() -> None:
    text = 'Section S.\n(* End S. *)\nModule M := Nat.\nEnd Nope.\nEnd S.\nSection S.\nDefinition s := "Module X.".\nEnd S.\n'
    changes = [(s.change, s.head) for s in walk(text)]
    assert changes == [
        ("open", "Section S."),
        ("define", "Module M := Nat."),
        (None, "End Nope."),
        ("close", "End S."),
        ("open", "Section S."),
        (None, "Definition s := ."),
        ("close", "End S."),
    ]
    opened = [s.ids for s in walk(text) if s.change == "open"]
    assert opened == [(0,), (1,)]  # two sections named S stay apart


def test_offsets_are_characters_after_non_ascii_text() -> None:
    text = "(* ∣ α β *) Definition d := \"∣\".\nSection Σ_free.\nLemma l : 1 ∣ 1.\nEnd Σ_free.\n"
    steps = list(walk(text))
    assert [text[s.start : s.end] for s in steps] == ['Definition d := "∣".', "Section Σ_free.", "Lemma l : 1 ∣ 1.", "End Σ_free."]
    assert steps[2].scopes == (Scope(kind="section", name="Σ_free"),)


TWO_LEMMAS = "Lemma a : True.\nProof.\nSection S.\nLemma b : True.\nProof. Admitted.\nLemma c : True. Abort.\n"


def _rule(cut_in_proof: bool) -> ProofRule:
    def lemma(head: str, following: str) -> bool:
        return head.startswith("Lemma ")

    return ProofRule(opens=lemma, cuts=lemma, cut_in_proof=cut_in_proof)


def test_a_cut_proof_resumes_at_the_next_declaration_or_takes_it() -> None:
    fresh = list(walk(TWO_LEMMAS, _rule(cut_in_proof=False)))
    assert [(s.head.split(" ")[0], s.in_proof, s.proof and s.proof.terminator) for s in fresh] == [
        ("Lemma", False, ""),
        ("Proof.", True, None),
        ("Section", True, None),  # inside a proof: no scope sentence
        ("Lemma", False, "Admitted"),
        ("Proof.", True, None),
        ("Admitted.", True, None),
        ("Lemma", False, "Abort"),
        ("Abort.", True, None),
    ]
    assert all(s.change is None and s.scopes == () for s in fresh)
    taken = list(walk(TWO_LEMMAS, _rule(cut_in_proof=True)))
    assert [(s.in_proof, s.proof is not None) for s in taken[:5]] == [(False, True), *[(True, False)] * 3, (False, False)]
    assert taken[6].proof is not None and taken[6].proof.terminator == "Abort"


def test_scope_names_follow_the_identifier_rule() -> None:
    text = "Module Mα'.\nSection ℕ_s.\nEnd ℕ_s.\nEnd Mα'.\nModule 1M.\nSection ∣.\n"
    assert [(s.change, s.scopes) for s in walk(text)] == [
        ("open", (Scope(kind="module", name="Mα'"),)),
        ("open", (Scope(kind="module", name="Mα'"), Scope(kind="section", name="ℕ_s"))),
        ("close", (Scope(kind="module", name="Mα'"),)),
        ("close", ()),
        (None, ()),  # no identifier starts with a digit or a symbol
        (None, ()),
    ]


@pytest.mark.parametrize(
    ("head", "statement"),
    [
        ("Example e : 1 = 1 := eq_refl.", Statement(has_body=True)),
        ("Instance i : C := {| f := 1 |}.", Statement(has_body=True)),
        ("Instance i : C := { f := 1 }.", Statement(has_body=True)),
        ("#[export] Instance i : C.", Statement(has_body=False)),
        ("Lemma l : let y := 1 in y = 1.", Statement(has_body=False)),
        ("Example l : let y := 1 in y = 1 := eq_refl.", Statement(has_body=True)),
        ("Lemma l : forall x, (let y := x in y) = x.", Statement(has_body=False)),
        ("Definition d (x : nat := 1) {struct x} : nat.", Statement(has_body=False)),
        ("Definition d : nat := let fix f (n : nat) := n in f 0.", Statement(has_body=True)),
        ("Lemma l : (fix f (n : nat) : nat := n with g (n : nat) : nat := n for f) 0 = 0.", Statement(has_body=False)),
        ("Lemma l : fix f (n : nat) : nat := n with g (n : nat) : nat := n for f = f.", Statement(has_body=False)),
        ("Lemma a : T with b : U with c' : V.", Statement(has_body=False, mutual=("b", "c'"))),
        ("Lemma a : match n with 0 => True | _ => False end with β : U.", Statement(has_body=False, mutual=("β",))),
        ("Fixpoint f (n : nat) : nat := match n with 0 => 0 | S m => g m end with g (n : nat) : nat := 0.",
         Statement(has_body=True)),
        ("Fixpoint f (n : nat) : bool with g (n : nat) : bool.", Statement(has_body=False, mutual=("g",))),
    ],
)
def test_a_declaration_reads_its_body_and_mutual_statements(head: str, statement: Statement) -> None:
    assert read_statement(head) == statement


@pytest.mark.parametrize(
    ("head", "following", "statement"),
    [
        # Rocq takes no body after a lemma's statement: a := there is a notation's
        ("Lemma h : {{ True }} X := 1 {{ True }}.", "", Statement(has_body=False)),
        ("#[local] Program Theorem h : {{ True }} X := 1 {{ True }}.", "admit.", Statement(has_body=False)),
        ("Lemma a : {{ True }} X := 1 {{ True }} with b : U.", "Proof.", Statement(has_body=False, mutual=("b",))),
        # an Example or a definition takes one, unless Proof follows (Rocq refuses it after a body)
        ("Example e : {{ True }} X := 1 {{ True }}.", "Proof.", Statement(has_body=False)),
        ("Instance i : C := {| f := 1 |}.", "Proof with auto.", Statement(has_body=False)),
        ("Example e : {{ True }} X := 1 {{ True }} := t.", "Lemma l : True.", Statement(has_body=True)),
        ("Definition d : nat := 1.", "", Statement(has_body=True)),
        ("Example e : 1 = 1 := eq_refl.", "Proofs.", Statement(has_body=True)),
    ],
)
def test_a_declaration_that_takes_no_body_there_reads_its_assignment_as_a_notation(
    head: str, following: str, statement: Statement
) -> None:
    assert read_statement(head, following) == statement
