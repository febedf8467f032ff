"""The induction, library and real-inequality families: their text analysis (no Rocq), and on real Rocq the
statements of ``family_statements.py`` (written for these families, none from a benchmark),
each proved by the built-in search and re-checked by a fresh ``coqc``."""

import shutil

import pytest
from family_statements import (
    S,  # tests/search is on sys.path (pytest rootdir-less import)
)

from prover.search.goal import Fixpoint, ProblemContext, header_fixpoints, header_inductives, parse_goal
from prover.search.induction import inductive_vars
from prover.search.realineq import _relation
from prover.search.table import ROCQ

needs_coq = pytest.mark.skipif(shutil.which("coqtop") is None or shutil.which("coqc") is None, reason="needs coqtop/coqc")


def test_header_inductives_and_fixpoint_depths():
    h, _ = S["flip_nodes"]
    assert header_inductives(h) == ("bt",)
    assert header_fixpoints(S["lucas_pos"][0]) == (Fixpoint("lucas", 2),)
    assert header_fixpoints(S["map_succ_total"][0]) == (Fixpoint("total", 1),)


def test_inductive_vars_orders_standard_types_first_and_skips_functions():
    g = parse_goal("  t : bt\n  l : list nat\n  f : nat -> nat\n  ============================\n  nodes t = length l", "rocq")
    assert inductive_vars(g, ("bt",)) == [("l", "list"), ("t", "bt")]


def test_top_level_relation():
    assert _relation("p / q + q / p >= 2") == ("p / q + q / p", ">=", "2")
    assert _relation("(a <= b) /\\ c") is None or _relation("(a <= b) /\\ c")[1] != "<="  # nothing inside parentheses


def test_search_output_parsing_symbols_and_ranking():
    from prover.search.library import (
        goal_pattern,
        goal_symbols,
        parse_search,
        rank_lemmas,
        search_queries,
    )

    g = parse_goal("  u, v : R\n  ============================\n  Rabs (u + v) <= Rabs u + Rabs v", "rocq")
    assert goal_symbols(g) == ["Rabs"]
    assert goal_pattern(g) == "Rabs (_ + _) <= Rabs _ + Rabs _"
    assert search_queries(goal_symbols(g), g)[0] == "Search (Rabs (_ + _) <= Rabs _ + Rabs _)."
    text = "Rabs_R0: Rabs 0 = 0\nRabs_triang:\n  forall a b : R, Rabs (a + b) <= Rabs a + Rabs b\n"
    found = parse_search(text)
    assert found[1] == ("Rabs_triang", "forall a b : R, Rabs (a + b) <= Rabs a + Rabs b")
    assert rank_lemmas(found, ["Rabs"], exact=["Rabs_triang"])[0] == "Rabs_triang"
    lists = parse_goal("  l, m : list nat\n  ============================\n  length (rev (l ++ m)) = length l", "rocq")
    assert goal_symbols(lists) == ["length", "rev", "app"]


def test_families_answer_their_shapes_and_stay_quiet_elsewhere():
    ctx = ProblemContext.of(S["flip_nodes"][0], S["flip_nodes"][1], "rocq")
    g = "  t : bt\n  ============================\n  nodes (flip t) = nodes t"
    closers, _ = ROCQ.candidates(g, 0, ctx=ctx)
    assert any(c.tag == "induction-struct" and c.tactic.startswith("induction t;") for c in closers)
    plain, _ = ROCQ.candidates("  x : R\n  ============================\n  x + 1 > x", 0, ctx=ProblemContext(scope="R_scope"))
    assert not any(c.tag in ("induction-struct", "clear-denominators", "sqrt-square", "library-hauto") for c in plain)


def _prove(name: str, seconds: float = 20):
    from lean_tools.rocq.session import RocqSession
    from prover.search import SearchBudget, prove_goal

    header, stmt = S[name]
    budget = SearchBudget(seconds=seconds, hammer="off")
    return prove_goal(lambda h: RocqSession(h, extra_args=("-w", "-all")), header, stmt, "rocq", budget)


@pytest.fixture
def _private_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


QUICK = {"map_succ_total": "induction-struct", "odd_2n1": "parity-spec", "recip2": "clear-denominators", "rabs_tri": "library-search"}


@pytest.mark.rocq
@needs_coq
@pytest.mark.usefixtures("_private_cwd")
@pytest.mark.parametrize("name", sorted(QUICK))
def test_family_proves_its_statement(name):
    res = _prove(name)
    assert res.proved, res.reason
    assert QUICK[name] in res.tags


@pytest.mark.slow
@pytest.mark.rocq
@needs_coq
@pytest.mark.usefixtures("_private_cwd")
@pytest.mark.parametrize("name", sorted(set(S) - set(QUICK)))
def test_every_family_statement_is_proved(name):
    res = _prove(name, seconds=30)
    assert res.proved, res.reason
