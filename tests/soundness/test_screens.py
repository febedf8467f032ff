"""Static screens, the candidate rule and axiom parsing, without any proof assistant."""

from __future__ import annotations

from lean_tools.parsing import parse_source
from lean_tools.soundness import screen_lean, screen_rocq
from lean_tools.soundness.axioms import (
    LEAN_AXIOMS,
    parse_print_assumptions,
    rocq_axiom_allowed,
    rocq_declared_parameters,
    rocq_unexpected,
)
from lean_tools.soundness.candidate import check_candidate
from lean_tools.soundness.rocq_screens import sentence_head
from lean_tools.soundness.rocq_verify import build_candidate_module, build_query
from lean_tools.soundness.shared_screens import skeleton


def rules(findings):
    return {f.rule for f in findings}


# --- Lean screens -------------------------------------------------------------------------


def test_lean_clean_proofs_pass():
    assert screen_lean("by\n  intro n\n  omega") == ()
    assert screen_lean("by\n  nlinarith [sq_nonneg (a - b), mul_pos ha hb]") == ()
    assert screen_lean("by\n  set_option maxHeartbeats 400000 in\n  simp") == ()
    assert screen_lean("by simp [Finset.sum_range_succ]; ring_nf") == ()
    assert screen_lean("Nat.add_comm n m") == ()
    assert screen_lean("by decide") == ()


def test_lean_comments_and_strings_neither_trigger_nor_hide():
    assert screen_lean("by\n  -- sorry, native_decide, #eval\n  /- axiom /- nested sorry -/ -/ omega") == ()
    assert screen_lean('by\n  have s : String := "sorry #eval axiom"\n  omega') == ()
    assert rules(screen_lean("by\n  /- comment -/ sorry")) == {"lean.hole"}


def test_lean_each_rule():
    assert "lean.hole" in rules(screen_lean("by exact sorryAx _ false"))
    assert "lean.native" in rules(screen_lean("by decide +native"))
    assert "lean.native" in rules(screen_lean("by exact Lean.ofReduceBool _ _ rfl"))
    assert "lean.command" in rules(screen_lean("by\n  omega\n  #print axioms foo"))
    assert "lean.command" in rules(screen_lean("by\n  open Classical in\n  simp"))
    assert "lean.set_option" in rules(screen_lean("by\n  set_option debug.skipKernelTC true in\n  simp"))
    assert "lean.set_option" in rules(screen_lean("by\n  set_option maxHeartbeats 400000\n  simp"))  # no `in`
    assert "lean.meta" in rules(screen_lean("by run_tac Lean.Elab.Tactic.evalTactic"))
    assert "lean.raw_string" in rules(screen_lean('by\n  have := r"\\"\n  exact x -- "'))
    assert "lean.command" in rules(screen_lean("by omega\ntheorem extra : True := trivial"))
    assert "lean.attribute" in rules(screen_lean("@[csimp] theorem h : True := trivial", role="helpers"))
    assert screen_lean("@[simp] theorem h : True := trivial", role="helpers") == ()
    assert "invisible" in rules(screen_lean("by\n  om\u200bega"))


def test_lean_lookalikes_are_caught():
    assert skeleton("ѕоrrу") == "sorry"
    assert rules(screen_lean("by exact ѕorry")) == {"lookalike"}
    assert rules(screen_lean("by nаtive_decide")) == {"lookalike"}
    assert screen_lean("by\n  intro α β\n  exact ⟨α, β⟩") == ()


# --- Rocq screens -------------------------------------------------------------------------


def test_rocq_clean_proofs_pass():
    assert screen_rocq("\n  intros n. induction n; simpl; lia.\n") == ()
    assert screen_rocq("\n  split.\n  - lia.\n  - { nra. }\n  all: auto.\n") == ()
    assert screen_rocq("\n  by rewrite addn0 addnC.\n") == ()
    assert screen_rocq("\n  exact (fun (A : Set) (x : A) => x).\n") == ()
    # Qualified Ltac names are tactics, not commands (vernacular is never qualified).
    assert screen_rocq("\n  Z.div_mod_to_equations. nia.\n") == ()
    assert screen_rocq("\n  - Zify.zify. lia.\n") == ()
    helpers = "Lemma h (a : nat) : a = a.\nProof. reflexivity. Qed.\nLtac fin := lia.\nDefinition d := 3.\n"
    assert screen_rocq(helpers, role="helpers") == ()


def test_rocq_each_rule():
    assert "rocq.hole" in rules(screen_rocq(" intros. admit."))
    assert "rocq.hole" in rules(screen_rocq(" give_up."))
    assert "rocq.banned" in rules(screen_rocq(" native_compute. reflexivity."))
    assert "rocq.command" in rules(screen_rocq(" intros.\n  Set Printing All.\n  lia."))
    assert "rocq.command" in rules(screen_rocq(" - Opaque Nat.add. lia."))
    assert "rocq.command" in rules(screen_rocq(" Z.div_mod_to_equations. Print Assumptions t. lia."))
    assert "rocq.command" in rules(screen_rocq(" Coq.Init.Print. lia."))
    assert "rocq.command" in rules(screen_rocq("Goal True.", role="helpers"))
    assert "rocq.attribute" in rules(
        screen_rocq(
            "#[bypass_check(guard)] Fixpoint f (n : nat) : False := f n.",
            role="helpers",
        )
    )
    assert "rocq.reserved" in rules(screen_rocq(" exact __prover_reference."))
    assert "rocq.hole" in rules(screen_rocq("Lemma h : True.\nProof. exact I.\n", role="helpers"))
    for cmd in (
        "Axiom a : False.",
        "Unset Guard Checking.",
        'Declare ML Module "x".',
        "Load x.",
        'Cd "/tmp".',
        'Redirect "f" Check 1.',
        "Extraction nat.",
        "Drop.",
        "Require Import Classical.",
        "Instance i : C.",
        'Local Notation "a + b" := (a * b).',
        "Print Assumptions t.",
        "Abort.",
    ):
        assert screen_rocq(cmd, role="helpers"), cmd
        assert screen_rocq(" " + cmd), cmd


def test_rocq_comments_strings_and_sentence_heads():
    assert screen_rocq(" (* admit. Axiom x : False. *) lia.") == ()
    assert screen_rocq(' idtac "Admitted Axiom". lia.') == ()
    assert sentence_head("  - { Set Printing All") == "Set"
    assert sentence_head("all: lia") == "lia"
    assert sentence_head("2: { Opaque x") == "Opaque"
    assert sentence_head("[h]: exact I") == "exact"


# --- the candidate rule ---------------------------------------------------------------------

ROCQ_P = "Require Import Arith Lia.\n\nDefinition d := 2.\n\nTheorem t (n : nat) : n + d = d + n.\nProof.\nAdmitted.\n"


def _check(cand: str, problem: str = ROCQ_P, lang="rocq"):
    return check_candidate(parse_source(problem, lang), cand)


def test_candidate_rule_accepts_proof_and_helpers():
    ok = ROCQ_P.replace("Proof.\nAdmitted.", "Proof.\n  unfold d. lia.\nQed.")
    assert _check(ok).ok
    helper = ok.replace(
        "Theorem t",
        "Lemma aux (a : nat) : a + 2 = 2 + a.\nProof. lia. Qed.\n\nTheorem t",
    )
    r = _check(helper)
    assert r.ok and "Lemma aux" in r.split.helpers
    assert _check("(* header comment *)\n" + ok.replace("  unfold", "(* c *) unfold")).ok


def test_candidate_rule_rejections():
    ok = ROCQ_P.replace("Proof.\nAdmitted.", "Proof.\n  unfold d. lia.\nQed.")
    assert rules(_check(ok.replace("Definition d := 2.", "Definition d := 0.")).findings) == {"candidate.preamble"}
    assert rules(_check(ok.replace("n + d = d + n", "n + d = n + d")).findings) == {"candidate.statement"}
    assert rules(_check(ok.replace("Qed.", "Defined.")).findings) == {"candidate.terminator"}
    # Read-only queries after the proof are what published files end with; anything else is not.
    assert _check(ok + "\nCheck t.\nPrint Assumptions t.\nCompute d + 1.\n").ok
    assert rules(_check(ok + "\nDefinition extra := 1.\n").findings) == {"candidate.suffix"}
    assert rules(_check(ok + '\nPrint Assumptions t.\nRedirect "out" Print t.\n').findings) == {"candidate.suffix"}
    assert "rocq.hole" in rules(_check(ok + "\nCheck ltac:(admit).\n").findings)
    assert rules(_check(ok.replace("Theorem t", "Theorem t2")).findings) == {"candidate.parse"}
    assert rules(_check(ok.replace("Theorem t", "Lemma d' : True. Proof. exact I. Qed.\nTheorem t")).findings) == set()
    shadow = ok.replace("Theorem t", "Definition n := 3.\nTheorem t")
    assert "candidate.shadowing" in rules(_check(shadow).findings)
    assert rules(_check(ok.replace("Theorem t", "Local Theorem t")).findings) == {"candidate.declaration"}
    # Theorem/Lemma are interchangeable
    assert _check(ok.replace("Theorem t", "Lemma t")).ok


def test_lean_candidate_rule():
    p = "import Mathlib\n\nopen Nat\n\ntheorem t (n : ℕ) : n + 0 = n := by\n  sorry\n"
    assert _check(p.replace("sorry", "simp"), p, "lean").ok
    assert _check(p.replace("theorem t", "lemma t").replace("sorry", "simp"), p, "lean").ok
    helper = p.replace("theorem t", "theorem aux : True := trivial\n\ntheorem t").replace("sorry", "simp")
    assert _check(helper, p, "lean").ok
    # a namespaced helper is fine unless its last component occurs in the statement (`x.n`, `open`)
    dotted = p.replace("theorem t", "theorem Nat.aux : True := trivial\n\ntheorem t").replace("sorry", "simp")
    assert _check(dotted, p, "lean").ok
    bad = p.replace("theorem t", "theorem Nat.n : True := trivial\n\ntheorem t").replace("sorry", "simp")
    assert "candidate.shadowing" in rules(_check(bad, p, "lean").findings)
    assert rules(_check(p.replace("open Nat", "open Nat Real").replace("sorry", "simp"), p, "lean").findings) == {
        "candidate.preamble"
    }


def test_probe_inserted_after_the_problem_preamble():
    ok = ROCQ_P.replace("Proof.\nAdmitted.", "Proof.\n  unfold d. lia.\nQed.")
    helper = ok.replace("Theorem t", "Lemma aux : True.\nProof. exact I. Qed.\n\nTheorem t")
    prob = parse_source(ROCQ_P, "rocq")
    r = _check(helper)
    mod = build_candidate_module(prob, helper, r.split)
    assert mod.index("__prover_reference") < mod.index("Lemma aux")
    assert mod.index("Definition d") < mod.index("__prover_reference")
    q = build_query("t", "n0nce")
    assert "Require Top.Candidate." in q and "constr_eq" in q and "Print Assumptions Top.Candidate.t." in q


# --- axioms ------------------------------------------------------------------------------


def test_parse_print_assumptions():
    assert parse_print_assumptions("Closed under the global context\n").closed
    out = (
        "Axioms:\nClassicalDedekindReals.sig_forall_dec\n  : forall P : nat -> Prop,\n    (forall n, {P n} + {~ P n}) -> x\n"
        "Candidate.R : realType\nCandidate.loop is assumed to be guarded.\n"
    )
    rep = parse_print_assumptions(out)
    assert rep.entries == (
        "ClassicalDedekindReals.sig_forall_dec",
        "Candidate.R : realType",
        "Candidate.loop is assumed to be guarded.",
    )
    assert rocq_unexpected(rep, "Candidate", frozenset({"R"})) == ("Candidate.loop is assumed to be guarded.",)
    assert parse_print_assumptions("garbage") is None


def test_rocq_whitelist():
    for name in (
        "ClassicalDedekindReals.sig_forall_dec",
        "Coq.Reals.ClassicalDedekindReals.sig_not_dec",
        "FunctionalExtensionality.functional_extensionality_dep",
        "Classical_Prop.classic",
        "boolp.propositional_extensionality",
        "Eqdep.Eq_rect_eq.eq_rect_eq",
        "Uint63.sub_spec",
        "PrimFloat.add",
        "FloatAxioms.Prim2SF_valid",
    ):
        assert rocq_axiom_allowed(name, "Candidate", frozenset()), name
    for name in (
        "classic",
        "Candidate.classic",
        "Candidate.R",
        "JMeq.JMeq_eq",
        "Candidate.Uint63.x",
        "Top.Candidate.x",
    ):
        assert not rocq_axiom_allowed(name, "Candidate", frozenset()), name
    assert rocq_axiom_allowed("Candidate.R", "Candidate", frozenset({"R"}))


def test_declared_parameters():
    sents = [
        "Variable R : realType.",
        "Variables (a b : nat) (c : R).",
        "Hypothesis hk : 3 <= k.",
        "Definition x := 1.",
    ]
    assert rocq_declared_parameters(sents) == frozenset({"R", "a", "b", "c", "hk"})
    assert {"propext", "Classical.choice", "Quot.sound"} == LEAN_AXIOMS


def test_allowed_requires_only_for_listed_modules():
    from lean_tools.soundness.rocq_screens import allowed_require

    allowed = frozenset({"Lra", "Psatz", "Coq.micromega.Lia"})
    assert allowed_require("Require Import Lra Psatz.", allowed)
    assert allowed_require("From Coq.micromega Require Import Lia.", allowed)
    assert not allowed_require("Require Import Lra Classical.", allowed)
    assert not allowed_require("Require Import Lra.", frozenset())
    helpers = "Require Import Lra.\nLemma h : True.\nProof. exact I. Qed.\n"
    assert screen_rocq(helpers, role="helpers", allowed_requires=allowed) == ()
    assert "rocq.banned" in rules(screen_rocq(helpers, role="helpers"))
    assert "rocq.banned" in rules(screen_rocq(" Require Import Lra.", allowed_requires=allowed))  # never in a proof


def test_lean_interpolated_strings_cannot_hide_code():
    assert "lean.raw_string" in rules(screen_lean('by\n  have : String := s!"{(sorry : Nat)}"\n  simp'))
