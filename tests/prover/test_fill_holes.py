"""Holes of a Rocq project file: finding them, filling only their bodies, the project's load path,
and the verdict in context (static part here; the kernel part and the whole command run on Rocq)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lean_tools.rocq.holes import closers, fill, find_holes
from lean_tools.rocq.project import ProjectError, activate, find_project, load_path_args, normalize_flags, parse_coqproject
from prover.fill_verdict import classify, read_assumptions, screen_bodies, split_bodies

FILE = """\
(* Divisibility ∣ and other non-ASCII text before the holes: ∀ x, x ∣ x *)
Require Import Arith Lia.

Section Sec.
Variable k : nat.
Hypothesis Hk : 2 <= k.

Lemma k_pos : 0 < k.
Proof.
Admitted.

Lemma k_ne : k <> 0.
Proof. pose proof Hk.
Admitted.
End Sec.

Module M.
  Module N.
    Theorem inner (n : nat) : n + 0 = n.
    Admitted.
  End N.
End M.

Lemma done_one : True.
Proof. split.
- admit.
Qed.

Definition d : nat := 3.
Instance inh : Inhabited nat.
Admitted.
Module F (X : Nat).
Lemma in_functor : True. Admitted.
End F.
"""


def test_holes_in_file_order_with_scopes_and_kinds():
    holes = find_holes(FILE)
    assert [h.label for h in holes] == ["k_pos", "k_ne", "M.N.inner", "done_one#admit1", "inh", "F.in_functor"]
    assert [h.kind for h in holes] == ["admitted", "admitted", "admitted", "admit", "admitted", "admitted"]
    assert [s.name for s in holes[2].scopes] == ["M", "N"]
    assert holes[0].scopes[0].kind == "section" and holes[0].qualified == "k_pos"
    assert holes[4].is_definition and not holes[0].is_definition
    assert not holes[5].fillable and "functor" in holes[5].unfillable_reason
    assert FILE[holes[1].script_start : holes[1].end_start].strip() == "pose proof Hk."
    assert closers(holes[2].scopes) == "End N.\nEnd M.\n"


def test_comments_and_strings_never_start_a_hole():
    text = '(* Lemma fake : False. Admitted. *)\nDefinition s := "Lemma x : False. Admitted.".\nLemma real : True.\nProof.\nAdmitted.\n'
    assert [h.name for h in find_holes(text)] == ["real"]


def _outside(text: str, holes) -> list[str]:
    pieces, prev = [], 0
    for h in holes:
        pieces.append(text[prev : h.script_start])
        prev = h.end_end
    return [*pieces, text[prev:]]


def test_fill_changes_only_the_body_byte_for_byte():
    holes = find_holes(FILE)
    out = fill(FILE, holes[1], "lia.")
    assert "Proof. pose proof Hk.\n  lia.\nQed.\nEnd Sec." in out
    filled = find_holes(out)
    assert "k_ne" not in [h.label for h in filled]
    # everything outside the hole's body is identical, non-ASCII comment included
    assert out.startswith(FILE[: holes[1].script_start])
    assert out.endswith(FILE[holes[1].end_end :])
    bodies = split_bodies(FILE, out, [holes[1]])
    assert bodies == [" pose proof Hk.\n  lia.\n"]


def test_fill_a_definition_ends_in_defined_and_admit_is_braced():
    holes = find_holes(FILE)
    out = fill(FILE, holes[4], "exact (populate 0).")
    assert "Instance inh : Inhabited nat.\n  exact (populate 0).\nDefined." in out
    out2 = fill(FILE, holes[3], "exact I. exact I.")
    assert "- { exact I. exact I. }\nQed." in out2
    # one sentence is braced too: the block closes exactly the goal admit. left
    assert "- { exact I. }\nQed." in fill(FILE, holes[3], "exact I.")


def test_split_bodies_rejects_changes_outside_the_bodies():
    holes = find_holes(FILE)
    good = fill(FILE, holes[0], "lia.")
    assert isinstance(split_bodies(FILE, good, [holes[0]]), list)
    edited = good.replace("Hypothesis Hk : 2 <= k.", "Hypothesis Hk : 3 <= k.")
    assert "changed" in split_bodies(FILE, edited, [holes[0]])
    # a body that ends its lemma early (Qed then more text) no longer matches the rest of the file
    early = fill(FILE, holes[0], "lia.\nQed.\nLemma extra : True. exact I.")
    assert isinstance(split_bodies(FILE, early, [holes[0]]), str)
    # an Admitted body is not a proof
    admitted = FILE[: holes[0].end_start] + "Admitted." + FILE[holes[0].end_end :]
    assert "does not end with Qed." in split_bodies(FILE, admitted, [holes[0]])


@pytest.mark.parametrize(
    "body",
    [
        "End Sec. Lemma k_pos : True. exact I.",
        "Require Import Reals. lia.",
        "Unset Guard Checking. lia.",
        "Local Set Printing All. lia.",
        "Notation x := 1. lia.",
        "Hint Resolve I : core. lia.",
        "Abort. Lemma k_pos : True. exact I.",
        "admit.",
        "Axiom cheat : False. lia.",
    ],
)
def test_body_screens_reject_commands_in_a_body(body):
    holes = find_holes(FILE)
    bad = screen_bodies([body], [holes[0]])
    assert "k_pos" in bad, body


def test_honest_bodies_pass_the_screens():
    holes = find_holes(FILE)
    assert screen_bodies(["intros. lia.", "- lia.\n- { auto. }", "assert (H : 1 = 1) by reflexivity. lia."], holes[:3]) == {}


def test_print_assumptions_are_read_per_lemma_and_classified():
    out = (
        "PROVER-ASSUMPTIONS-OF a\nClosed under the global context\n"
        "PROVER-ASSUMPTIONS-OF M.b\nAxioms:\nk_pos : 0 < k\nmy_axiom : forall n, n = n\n"
        "ClassicalDedekindReals.sig_forall_dec : forall P, P\n"
    )
    got = read_assumptions(out)
    assert got["a"] == ()
    assert got["M.b"] == ("k_pos", "my_axiom", "ClassicalDedekindReals.sig_forall_dec")
    own, other = classify(got["M.b"], frozenset({"my_axiom"}))
    assert own == ("my_axiom",) and other == ("k_pos",)


def test_coqproject_flags_are_absolute_and_checked(tmp_path):
    (tmp_path / "theories").mkdir()
    text = "# comment\n-Q theories MyProj\n-R lib Lib\n-arg -w -arg -notation-overridden\ntheories/A.v\n"
    flags = parse_coqproject(text, tmp_path)
    assert flags[:3] == ("-Q", str((tmp_path / "theories").resolve()), "MyProj")
    assert flags[3:6] == ("-R", str((tmp_path / "lib").resolve()), "Lib")
    assert flags[6:] == ("-w", "-notation-overridden")
    with pytest.raises(ProjectError, match="needs a folder and a logical name"):
        normalize_flags(["-Q", "theories"], tmp_path)
    with pytest.raises(ProjectError, match="not a logical name"):
        normalize_flags(["-Q", "theories", "my-proj"], tmp_path)


def test_find_project_walks_up_and_adds_command_line_flags(tmp_path):
    (tmp_path / "_CoqProject").write_text("-Q theories P\n")
    sub = tmp_path / "theories" / "deep"
    sub.mkdir(parents=True)
    f = sub / "A.v"
    f.write_text("Lemma a : True. Admitted.\n")
    proj = find_project(f, ["-I", "plugins"], base=tmp_path)
    assert proj.root == str(tmp_path.resolve()) and proj.origin == "_CoqProject+command line"
    assert proj.flags == ("-Q", str((tmp_path / "theories").resolve()), "P", "-I", str((tmp_path / "plugins").resolve()))
    alone = tmp_path.parent / f"{tmp_path.name}-alone"
    alone.mkdir()
    (alone / "B.v").write_text("")
    assert find_project(alone / "B.v").origin == "none"


def test_dune_theory_maps_the_build_folder(tmp_path):
    (tmp_path / "dune-project").write_text("(lang dune 3.8)\n(using coq 0.8)\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "dune").write_text("(coq.theory\n (name Foo)\n (theories Stdlib))\n")
    proj = find_project(tmp_path / "src" / "X.v")
    assert proj.origin == "dune"
    assert proj.flags == ("-Q", str((tmp_path / "_build" / "default" / "src").resolve()), "Foo")


def test_activate_sets_and_restores_the_load_path():
    assert load_path_args() == ()
    with activate(("-Q", "/x", "Y")):
        assert load_path_args() == ("-Q", "/x", "Y")
    assert load_path_args() == ()


# --- the whole command on a small project, real Rocq ---------------------------------------

BASE = """\
Require Import Arith Lia.
Definition twice (n : nat) := n + n.
Lemma twice_le : forall n, n <= twice n.
Proof. intros; unfold twice; lia. Qed.
"""
USE = """\
From Proj Require Import Base.
Require Import Lia.
(* ∣ non-ASCII before the holes *)
Section S.
Variable k : nat.
Hypothesis Hk : 2 <= k.
Lemma k_pos : 0 < k.
Proof.
Admitted.
Lemma k_le : k <= twice k.
Proof.
Admitted.
End S.
Module M.
Lemma uses_admitted : 0 < 5.
Proof.
Admitted.
End M.
"""


def _project(tmp_path: Path) -> Path:
    (tmp_path / "theories").mkdir()
    (tmp_path / "_CoqProject").write_text("-Q theories Proj\ntheories/Base.v\ntheories/Use.v\n")
    (tmp_path / "theories" / "Base.v").write_text(BASE)
    (tmp_path / "theories" / "Use.v").write_text(USE, encoding="utf-8")
    return tmp_path / "theories" / "Use.v"


@pytest.mark.rocq
def test_a_file_whose_import_is_not_built_is_bad_input(tmp_path, capsys):
    from prover.commands.prove import main

    use = _project(tmp_path)
    assert main([str(use), "--json", "--no-cache", "--timeout", "60"]) == 2
    err = capsys.readouterr().err
    assert "Base" in err and "Traceback" not in err


@pytest.mark.rocq
def test_prove_fills_a_project_file_in_place(tmp_path, capsys, monkeypatch):
    import lean_tools.pool
    from prover.commands.prove import main

    pools: list[lean_tools.pool.SessionPool] = []

    class Recorded(lean_tools.pool.SessionPool):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            pools.append(self)

    monkeypatch.setattr(lean_tools.pool, "SessionPool", Recorded)
    use = _project(tmp_path)
    coqc = shutil.which("coqc")
    assert coqc is not None
    code = main([str(use), "--build", "--in-place", "--json", "--no-cache", "--hole-timeout", "40", "--timeout", "200"])
    report = json.loads(capsys.readouterr().out)
    statuses = {h["name"]: h["status"] for h in report["holes"]}
    assert statuses == {"k_pos": "proved", "k_le": "proved", "M.uses_admitted": "proved"}, report
    assert code == 0
    assert report["project"]["origin"] == "_CoqProject"
    out = use.read_text(encoding="utf-8")
    assert (tmp_path / "theories" / "Use.v.orig").read_text(encoding="utf-8") == USE
    holes = find_holes(USE)
    assert isinstance(split_bodies(USE, out, holes), list)
    assert "Admitted" not in out
    # the later holes' sessions were reached by moving the first one forward, not by new coqtops
    (stats,) = [p.stats for p in pools]
    assert stats.extended >= 1 and stats.created < len(holes), stats


JUDGED = """\
Axiom project_ax : forall n : nat, n + 0 = n.
Lemma a : 1 = 1.
Proof.
Admitted.
Lemma b : 1 = 1.
Proof.
Admitted.
Lemma c (n : nat) : n + 0 = n.
Proof.
Admitted.
Definition d : nat.
Admitted.
"""


def _judge(tmp_path: Path, fills: dict[str, str]):
    from prover.fill_verdict import judge
    from prover.records import HoleResult

    text = JUDGED
    results = []
    for h in find_holes(JUDGED):
        if h.label in fills:
            current = next(x for x in find_holes(text) if x.label == h.label)
            text = fill(text, current, fills[h.label])
            results.append(HoleResult(name=h.label, kind=h.kind, status="proved", proof=fills[h.label]))
        else:
            results.append(HoleResult(name=h.label, kind=h.kind, status="not_proved"))
    return judge(JUDGED, text, results, None)


@pytest.mark.rocq
def test_a_proof_resting_on_an_admitted_hole_is_proved_assuming_and_project_axioms_are_allowed(tmp_path):
    report = _judge(tmp_path, {"b": "exact a.", "c": "intros; apply project_ax."})
    by = {h.name: h for h in report.holes}
    assert by["b"].status == "proved_assuming" and by["b"].assumes == ("a",)
    assert by["c"].status == "proved" and by["c"].assumes == ()
    assert report.allowed_axioms == ("project_ax",)
    assert "Admitted" in report.text and "exact a." in report.text


@pytest.mark.rocq
def test_in_context_cheats_are_rejected_and_the_original_is_kept(tmp_path):
    # a definition closed with Qed instead of Defined changes what later text can compute with
    report = _judge(tmp_path, {"d": "exact 0."})
    assert report.holes[-1].status == "proved"  # fill writes Defined. for a definition
    qed = JUDGED.replace("Definition d : nat.\nAdmitted.", "Definition d : nat.\nexact 0.\nQed.")
    assert "does not end with Defined." in split_bodies(JUDGED, qed, [find_holes(JUDGED)[-1]])
    # a body that does not compile is rejected as a whole, nothing is written
    report = _judge(tmp_path, {"a": "exact I."})
    assert report.holes[0].status == "not_proved" and "does not compile" in report.holes[0].reason
    assert report.text == JUDGED


def test_the_projects_admitted_lemmas_have_full_names(tmp_path):
    from lean_tools.rocq.project import project_admitted
    from lean_tools.soundness.rocq_verify import _assumed_elsewhere

    (tmp_path / "theories" / "sub").mkdir(parents=True)
    text = "Module M.\nLemma a : True.\nAdmitted.\nEnd M.\nLemma b : True.\nProof. exact I. Qed.\n"
    (tmp_path / "theories" / "sub" / "A.v").write_text(text)
    names = project_admitted(("-Q", str(tmp_path / "theories"), "P"))
    assert names == ("P.sub.A.M.a",)
    assert _assumed_elsewhere("A.M.a", frozenset(names)) and _assumed_elsewhere("P.sub.A.M.a", frozenset(names))
    assert not _assumed_elsewhere("A.M.b", frozenset(names)) and not _assumed_elsewhere("a", frozenset({"a"}))


def test_the_projects_definitions_include_names_with_unicode_letters(tmp_path):
    from lean_tools.rocq.project import project_definitions

    (tmp_path / "theories").mkdir()
    (tmp_path / "theories" / "D.v").write_text("Definition φ := 1.\nLocal Fixpoint größe (n : nat) := n.\nDefinition plain := 2.\n")
    assert project_definitions(("-Q", str(tmp_path / "theories"), "P")) == ("φ", "größe", "plain")
