"""Premise selection for a hole of a Rocq project file (``prover.premises``): what is collected
from the file and the project, how it is ranked, the section context, what the agent's task
prompt shows, and that the search's own local candidates keep their order outside a project.
Everything here is static (no ``coqc``)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from lean_tools.rocq.holes import Hole, find_holes
from lean_tools.rocq.project import RocqProject, activate, find_project
from prover.premises import Premise, collect_premises, hole_context, prompt_block, section_context, select

NUMS = """\
Definition double (n : nat) := n + n.
Lemma double_zero : double 0 = 0.
Proof. reflexivity. Qed.
Lemma double_twice : forall n, double n = 2 * n.
Admitted.
"""

LISTS = """\
From P Require Import Sub.Nums.
Require Import List.
Import ListNotations.
Module L.
Lemma rev_involutive' : forall (A : Type) (l : list A), rev (rev l) = l.
Proof. intros; apply rev_involutive. Qed.
End L.
Section S.
Variable A : Type.
Lemma app_nil_r' : forall l : list A, l ++ [] = l.
Proof. intros; apply app_nil_r. Qed.
End S.
"""

UNLOADED = "Lemma unloaded_rev : forall l : list nat, rev (rev l) = l.\nProof. intros; apply rev_involutive. Qed.\n"

MAIN = """\
From P Require Import Lists.
Require Import List Lia.
Import ListNotations.
(* Lemma commented_out : rev [] = @nil nat. *)
Fixpoint total (l : list nat) : nat := match l with [] => 0 | x :: t => x + total t end.
Lemma total_app : forall l m, total (l ++ m) = total l + total m.
Proof. induction l; simpl; intros; [reflexivity | rewrite IHl; lia]. Qed.
Lemma aborted : False.
Abort.
Module M.
  Lemma rev_length' : forall (A : Type) (l : list A), length (rev l) = length l.
  Proof. intros; apply rev_length. Qed.
End M.
Section Rev.
  Variable A : Type.
  Variables (x y : A).
  Hypothesis Hxy : x = y.
  Let two := [x; y].
  Lemma rev_two : rev two = [y; x].
  Proof. reflexivity. Qed.
  Lemma early_admitted : forall l : list A, rev (l ++ [x]) = x :: rev l.
  Admitted.
  Lemma target : forall l : list A, rev (rev (l ++ two)) = l ++ two.
  Admitted.
  Lemma later : total [] = 0.
  Proof. reflexivity. Qed.
End Rev.
"""


@pytest.fixture
def project(tmp_path: Path) -> tuple[RocqProject, Path, str]:
    (tmp_path / "_CoqProject").write_text("-Q theories P\ntheories/Main.v\n")
    theories = tmp_path / "theories"
    (theories / "Sub").mkdir(parents=True)
    (theories / "Sub" / "Nums.v").write_text(NUMS)
    (theories / "Lists.v").write_text(LISTS)
    (theories / "Unloaded.v").write_text(UNLOADED)
    main = theories / "Main.v"
    main.write_text(MAIN)
    return find_project(main), main, MAIN


def _hole(text: str, name: str) -> Hole:
    return next(h for h in find_holes(text) if h.name == name)


def test_the_files_and_the_loaded_project_files_declarations_are_collected(project):
    proj, main, text = project
    found = {p.name: p for p in collect_premises(text, _hole(text, "target"), proj, path=str(main))}
    # the file's own, before the hole: modules closed since qualify the name, sections do not
    assert {n: (p.where, p.kind) for n, p in found.items() if p.file == "theories/Main.v"} == {
        "total": ("file", "definition"),
        "total_app": ("file", "lemma"),
        "M.rev_length'": ("file", "lemma"),
        "rev_two": ("section", "lemma"),
    }
    # the project's files the file loads, through Lists.v's own Require of Sub.Nums; full logical names
    assert {n for n, p in found.items() if p.where == "project"} == {
        "P.Lists.L.rev_involutive'", "P.Lists.app_nil_r'", "P.Sub.Nums.double", "P.Sub.Nums.double_zero",
    }
    assert found["P.Lists.app_nil_r'"].sections == ("S",) and found["P.Lists.app_nil_r'"].file == "theories/Lists.v"
    assert found["rev_two"].statement == "Lemma rev_two : rev two = [y; x]."
    # left out: comments, an aborted lemma, admitted lemmas, the hole itself and what follows, unloaded files
    assert not {"commented_out", "aborted", "early_admitted", "target", "later", "unloaded_rev"} & {n.split(".")[-1] for n in found}


def test_admitted_lemmas_only_when_allowed_and_then_marked(project):
    proj, main, text = project
    allowed = {p.name: p.admitted for p in collect_premises(text, _hole(text, "target"), proj, path=str(main), allow_admitted=True)}
    assert allowed["early_admitted"] is True and allowed["P.Sub.Nums.double_twice"] is True
    assert allowed["total_app"] is False


def test_without_a_project_only_the_files_own_declarations(project):
    _, main, text = project
    names = [p.name for p in collect_premises(text, _hole(text, "target"), RocqProject(), path=str(main))]
    assert names == ["total", "total_app", "M.rev_length'", "rev_two"]


def _premise(name: str, statement: str, position: int, where: str = "file") -> Premise:
    return Premise(name=name, statement=statement, file="F.v", kind="lemma", where=where, position=position)  # type: ignore[arg-type]


def test_a_goal_about_rev_ranks_the_rev_lemmas_first():
    premises = [
        _premise("add_comm'", "Lemma add_comm' : forall n m : nat, n + m = m + n.", 10),
        _premise("rev_app", "Lemma rev_app : forall (l m : list nat), rev (l ++ m) = rev m ++ rev l.", 20),
        _premise("mul_1", "Lemma mul_1 : forall n : nat, n * 1 = n.", 30),
        _premise("rev_rev", "Lemma rev_rev : forall l : list nat, rev (rev l) = l.", 40),
        _premise("len_nil", "Lemma len_nil : length (@nil nat) = 0.", 50),
    ]
    top = [p.name for p in select(premises, "forall l : list nat, rev (rev (l ++ l)) = l ++ l", k=3)]
    assert set(top[:2]) == {"rev_rev", "rev_app"} and len(top) == 3
    assert select(premises, "anything", k=0) == []


def test_ties_go_to_the_nearer_premise():
    same = "Lemma x : foo = bar."
    premises = [
        _premise("far", same, 10),
        _premise("other_file", same, 900, where="project"),
        _premise("near", same, 50),
    ]
    assert [p.name for p in select(premises, "baz = qux", k=3)] == ["near", "far", "other_file"]


def test_the_section_context_is_that_of_the_open_sections(project):
    _, _, text = project
    assert section_context(text, _hole(text, "target")).splitlines() == [
        "Variable A : Type.", "Variables (x y : A).", "Hypothesis Hxy : x = y.", "Let two := [x; y].",
    ]
    closed = "Section S.\nVariable B : Type.\nEnd S.\nSection T.\nContext {C : Type}.\nLemma t : True.\nAdmitted.\nEnd T.\n"
    assert section_context(closed, _hole(closed, "t")) == "Context {C : Type}."
    top = "Lemma u : True.\nAdmitted.\n"
    assert section_context(top, _hole(top, "u")) == ""


def test_the_fill_gives_the_holes_problem_its_context(project):
    from prover.fill import _problem_for

    proj, main, text = project
    problem = _problem_for(text, _hole(text, "target"), str(main), proj)
    ctx = problem.hole_context
    assert ctx is not None and "Hypothesis Hxy : x = y." in ctx.section
    names = [p.name for p in ctx.premises]
    assert len(names) == 8 and "P.Lists.L.rev_involutive'" in names[:3]
    # a Problem with its context is still a JSONL record
    assert type(problem).from_json(problem.to_json()) == problem


def test_the_agents_task_prompt_shows_the_blocks(project, agent_config):
    from prover.agent import LemmaAgent
    from prover.budget import Budget
    from prover.llm import ScriptedLLM
    from prover.problem import problem_from_text
    from prover.records import LemmaGoal
    from prover.trace import Trace

    proj, main, text = project
    hole = _hole(text, "target")
    problem = problem_from_text("Lemma target : forall l : list nat, rev (rev l) = l.\nAdmitted.\n", "rocq")
    problem = problem.model_copy(update={"hole_context": hole_context(text, hole, proj, problem.statement, path=str(main), k=3)})
    llm = ScriptedLLM([{"tool": "give_up", "args": {"reason": "test"}}])
    ws = SimpleNamespace(
        problem=problem, config=agent_config, trace=Trace(None), budget=Budget(agent_config.budget), env_header="",
        goals_after=lambda *a: SimpleNamespace(goals=[]),
    )
    goal = LemmaGoal(problem="target", name="target", language="rocq", header="", context="", declaration=problem.declaration)
    result = LemmaAgent(goal, ws, llm, prove_sub=lambda g: None, make_goal=lambda *a, **k: None).run()  # type: ignore[arg-type, return-value]
    assert not result.proved and "gave up" in result.reason
    task = next(m.content for m in llm.requests[0][0] if m.role == "user")
    assert "Section context (in force at the lemma, as written):\n```coq\nVariable A : Type." in task
    assert "Relevant earlier lemmas (most relevant first; use them by these names):" in task
    assert "(* P.Lists.L.rev_involutive': project file theories/Lists.v *)" in task
    assert task.count("(* ") == 3
    # a problem without a hole context: no blocks, the prompt as it always was
    empty = problem.hole_context.model_copy(update={"premises": (), "section": ""})
    assert prompt_block(None, "coq") == prompt_block(empty, "coq") == ""


HEADER = """\
Require Import List Lia.
Import ListNotations.
Fixpoint total (l : list nat) : nat := match l with [] => 0 | x :: t => x + total t end.
Lemma total_app : forall l m, total (l ++ m) = total l + total m.
Proof. induction l; simpl; intros; [reflexivity | rewrite IHl; lia]. Qed.
Lemma rev_rev' : forall l : list nat, rev (rev l) = l.
Proof. apply rev_involutive. Qed.
Lemma total_pos : forall l, total l >= 0.
Proof. lia. Qed.
Lemma ev_rev : forall l : list nat, total (rev l) >= 0.
Proof. lia. Qed.
Lemma zero_total : total [] = 0.
Proof. reflexivity. Qed.
"""
STATEMENT = "Theorem t : forall l : list nat, rev (rev (rev l)) = rev l."


def _local_candidates(ctx) -> list[str]:
    from prover.search.family import Focus
    from prover.search.goal import Domain, parse_goal
    from prover.search.induction import structural_induction
    from prover.search.logic import apply_local
    from prover.search.rewriting import rewrite_local

    g = parse_goal("  l : list nat\n  ============================\n  total (rev l) >= 0", "rocq")
    f = Focus(g=g, d=Domain(), ctx=ctx, depth=1)
    return [c.tactic for fam in (rewrite_local, apply_local, structural_induction) for c in fam(f)]


def test_outside_a_project_the_searchs_local_candidates_keep_their_order(tmp_path):
    from prover.search.goal import ProblemContext, header_equations, header_lemmas

    with activate(None):
        ctx = ProblemContext.of(HEADER, STATEMENT, "rocq")
    # exactly the lists as the file gives them (nearest last), nothing reordered
    assert ctx.equations == header_equations(HEADER) == ("total_app", "rev_rev'", "zero_total")
    assert ctx.lemmas == header_lemmas(HEADER)
    plain = ProblemContext(equations=header_equations(HEADER), lemmas=header_lemmas(HEADER))
    assert _local_candidates(ctx) == _local_candidates(plain)
    # in a project: the same candidates, the most relevant to the statement first
    with activate(RocqProject(root=str(tmp_path), flags=("-Q", str(tmp_path), "P"))):
        ranked = ProblemContext.of(HEADER, STATEMENT, "rocq")
    assert ranked.equations[0] == "rev_rev'" and sorted(ranked.equations) == sorted(ctx.equations)
    assert sorted(ranked.lemmas) == sorted(ctx.lemmas) and [n for n, _ in ranked.lemmas][-2:] == ["ev_rev", "rev_rev'"]
    rewrite_and_apply = [c for c in _local_candidates(ranked) if not c.startswith("induction")]
    assert sorted(rewrite_and_apply) == sorted(c for c in _local_candidates(ctx) if not c.startswith("induction"))
    assert rewrite_and_apply[0] == "rewrite rev_rev'" and "apply ev_rev;" in rewrite_and_apply[6]


def test_declarations_named_with_unicode_letters_are_collected():
    text = ("Definition δ (n : nat) := n + n.\n"
            "Lemma δ_zéro : δ 0 = 0.\nProof. reflexivity. Qed.\n"
            "Lemma target : δ 1 = 2.\nProof.\nAdmitted.\n")
    names = [p.name for p in collect_premises(text, _hole(text, "target"), RocqProject())]
    assert names == ["δ", "δ_zéro"]
