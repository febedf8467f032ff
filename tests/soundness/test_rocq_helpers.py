"""rocq_helpers through screen_rocq(role="helpers", final=True) and the read-only suffix rule.

The allowances hold only in the final helper run (after the problem's last sentence, where the
reference statement is elaborated before them); the same text in any other run stays rejected.
"""

from __future__ import annotations

import pytest

from lean_tools.soundness import screen_rocq
from lean_tools.soundness.rocq_helpers import readonly_sentence
from lean_tools.soundness.rocq_screens import screen_rocq_readonly

LEMMA = "Lemma aux (a : nat) : a + 0 = a.\nProof. induction a; simpl; auto. Qed.\n"


def rules(text: str, final: bool = True) -> set[str]:
    return {f.rule for f in screen_rocq(text, role="helpers", final=final)}


@pytest.mark.parametrize(
    "text",
    [
        "Section S.\nVariable k : nat.\nHypothesis Hk : 0 < k.\n" + LEMMA + "End S.\n",
        "Section S.\nContext {A : Type} (f : A -> nat).\nLet g (x : A) := f x.\n" + LEMMA + "End S.\n",
        "Section S.\nLet two : nat.\nProof. exact 2. Defined.\nEnd S.\n",
        "Set Implicit Arguments.\nUnset Strict Implicit.\nUnset Printing Implicit Defensive.\n" + LEMMA,
        'Local Set Warnings "-notation-overridden".\nSet Bullet Behavior "Strict Subproofs".\n' + LEMMA,
        LEMMA + "Create HintDb mydb.\nHint Resolve aux : mydb.\n#[local] Hint Rewrite aux : mydb.\nGlobal Hint Unfold id : core.\n",
        "Hint Extern 1 (_ = _) => reflexivity : core.\n" + LEMMA,
        "Open Scope nat_scope.\nLocal Close Scope nat_scope.\nDeclare Scope my_scope.\n" + LEMMA,
        LEMMA + "Arguments aux a : clear implicits.\nOpaque aux.\nGlobal Transparent aux.\nImplicit Types n m : nat.\n",
        "Import Nat.\n" + LEMMA,
        "Inductive ev : nat -> Prop := ev0 : ev 0 | evSS n : ev n -> ev (S (S n)).\nRecord pt := mkPt { px : nat }.\n",
        "Variant color := Red | Green.\nStructure box := { content : nat }.\n" + LEMMA,
        "Local Ltac crush := auto.\nLocal Definition three := 3.\n#[local] Lemma t3 : three = 3.\nProof. reflexivity. Qed.\n",
        "Check Nat.add_comm.\nSearch (_ + 0 = _).\n" + LEMMA + "Print Assumptions aux.\n",
    ],
)
def test_final_run_allows(text):
    assert rules(text) == set(), screen_rocq(text, role="helpers", final=True)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Variable boom : False.\n" + LEMMA, "rocq.banned"),  # outside a section: an axiom
        ("Section S.\nVariable boom : False.\n" + LEMMA, "rocq.banned"),  # never closed
        ("Section A.\nVariable boom : False.\nEnd B.\n", "rocq.banned"),
        ("Let x : nat := 1.\n", "rocq.command"),  # Let outside a section
        ("Global Set Implicit Arguments.\n" + LEMMA, "rocq.banned"),  # reaches the query process
        ("Unset Guard Checking.\n" + LEMMA, "rocq.banned"),
        ("Local Unset Universe Checking.\n" + LEMMA, "rocq.banned"),
        ("Set Definitional UIP.\n" + LEMMA, "rocq.command"),
        ("Set Nested Proofs Allowed.\n" + LEMMA, "rocq.command"),
        ("Hint Extern 1 => admit : core.\n", "rocq.hole"),
        ("Hint Resolve aux : typeclass_instances.\n" + LEMMA, "rocq.banned"),
        ("#[bypass_check(guard)] Hint Resolve aux : core.\n" + LEMMA, "rocq.attribute"),
        ("Lemma h : True.\nProof.\nHint Resolve I : core.\nexact I. Qed.\n", "rocq.command"),  # inside a proof
        ("Section S.\nLemma h : True.\nProof.\nVariable v : False.\nexact I. Qed.\nEnd S.\n", "rocq.command"),
        ('Local Notation "x ²" := (x * x) (at level 1).\n', "rocq.banned"),  # stays rejected
        ("Module M.\nEnd M.\nImport M.\n", "rocq.banned"),
        ("Export Nat.\n", "rocq.banned"),
        ("Class C := { c : nat }.\n", "rocq.command"),  # instance resolution: stays rejected
        ("Local Axiom boom : False.\n", "rocq.banned"),
        ("#[program] Definition d : nat := 1.\n", "rocq.attribute"),
        ("Local Unset Positivity Checking.\nInductive T := c : (T -> False) -> T.\n", "rocq.banned"),
        ("Check ltac:(admit).\n", "rocq.hole"),
        ("Opaque __prover_reference.\n", "rocq.reserved"),  # whole-sentence forms never hide the probe's name
        ("Section S.\nEnd S.\nImport __prover_x.\n", "rocq.reserved"),
        ("Section __prover_s.\nEnd __prover_s.\n", "rocq.reserved"),
    ],
)
def test_final_run_rejects(text, rule):
    assert rule in rules(text), screen_rocq(text, role="helpers", final=True)


def test_allowances_only_in_the_final_run():
    for text in ("Open Scope nat_scope.\n", "Section S.\nVariable k : nat.\nEnd S.\n", "Create HintDb d.\n", "Arguments id {A} x.\n"):
        assert rules(text, final=False), text  # between the problem's sentences: still rejected


@pytest.mark.parametrize(
    "sentence",
    ["Print Assumptions t.", "Check t.", "About t.", "Print t.", "Search (_ + 0).", "Compute 1 + 1.", "Eval cbv in 1.", "Locate t."],
)
def test_readonly_queries(sentence):
    assert readonly_sentence(sentence) is not None
    assert screen_rocq_readonly(sentence) == ()


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        ('Redirect "f" Print Assumptions t.', "candidate.suffix"),
        ("Print Universes.", "candidate.suffix"),  # can write a file
        ('Print Sorted Universes "Query.v".', "candidate.suffix"),
        ("Time Check t.", "candidate.suffix"),
        ("Definition x := 1.", "candidate.suffix"),
        ("Eval native_compute in 1 + 1.", "rocq.banned"),
        ("Check ltac:(admit).", "rocq.hole"),
        ("Check (fun x : nat => x) (ltac:(give_up)).", "rocq.hole"),
    ],
)
def test_not_readonly(sentence, rule):
    assert rule in {f.rule for f in screen_rocq_readonly(sentence)}


def test_time_prefix_judges_the_sentence_after_it():
    assert screen_rocq("  Time lia.\n  Timeout 10 auto.", role="proof") == ()
    assert "rocq.command" in {f.rule for f in screen_rocq("  Time Axiom boom : False.", role="proof")}


def test_probe_generalised_like_the_target_inside_the_problems_section():
    from lean_tools.parsing import parse_source
    from lean_tools.soundness.candidate import check_candidate
    from lean_tools.soundness.rocq_verify import build_candidate_module, in_open_section

    inside = "Section S.\nVariable n : nat.\nHypothesis H : 0 < n.\nTheorem t : n <= n.\nProof.\nAdmitted.\nEnd S.\n"
    closed = "Section S.\nVariable n : nat.\nEnd S.\nTheorem t : 1 <= 1.\nProof.\nAdmitted.\n"
    assert in_open_section(parse_source(inside, "rocq")) and not in_open_section(parse_source(closed, "rocq"))
    for problem, expected in ((inside, True), (closed, False)):
        p = parse_source(problem, "rocq")
        cand = problem.replace("Admitted.", "auto.\nQed.")
        mod = build_candidate_module(p, cand, check_candidate(p, cand).split)
        assert ('Set Default Proof Using "All".' in mod) is expected
