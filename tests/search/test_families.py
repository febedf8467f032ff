"""The induction, library and real-inequality families: their text analysis (no Rocq), and on real Rocq the
statements of ``family_statements.py`` (written for these families, none from a benchmark),
each proved by the built-in search and re-checked by a fresh ``coqc``."""

import dataclasses
import re

import pytest
from family_statements import (
    S,  # tests/search is on sys.path (pytest rootdir-less import)
)

from prover.search.goal import Fixpoint, ProblemContext, header_fixpoints, header_inductives, parse_goal
from prover.search.induction import inductive_vars
from prover.search.realineq import _relation
from prover.search.table import ROCQ


def test_header_inductives_and_fixpoint_depths():
    h, _ = S["flip_nodes"]
    assert header_inductives(h) == ("bt",)
    assert header_fixpoints(S["lucas_pos"][0]) == (Fixpoint("lucas", 2),)
    assert header_fixpoints(S["map_succ_total"][0]) == (Fixpoint("total", 1),)
    nested = "Fixpoint pell (n : nat) : nat := match n with 0 => 0 | S k => match k with 0 => 1 | S j => 2 * pell k + pell j end end."
    assert header_fixpoints(nested) == (Fixpoint("pell", 2),)
    (keep,) = header_fixpoints(S["keep_len"][0])
    assert keep.conditional and not header_fixpoints(S["map_succ_total"][0])[0].conditional


def test_induction_variants_for_tests_and_appends_fire_only_where_they_apply():
    def tags(name, goal):
        ctx = ProblemContext.of(S[name][0], S[name][1], "rocq")
        return {c.tag for c in ROCQ.candidates(goal, 0, ctx=ctx)[0]}

    keep = tags("keep_len", "  l : list nat\n  ============================\n  length (keep l) <= length l")
    assert "induction-if" in keep and "induction-app" in keep
    flat = tags("flat_len", "  l, m : list (list nat)\n  ============================\n  length (flat (l ++ m)) = length (flat l)")
    assert "induction-app" in flat
    tot = tags("map_succ_total", "  l : list nat\n  ============================\n  total l >= 0")
    assert "induction-if" in tot and "induction-app" not in tot  # library functions over data may test
    nat = tags("lucas_pos", "  n : nat\n  ============================\n  1 <= lucas n")
    assert not {"induction-if", "induction-app"} & nat  # a nat recursion that tests nothing


def test_induction_over_hypotheses_predicates_and_library_types_fires_only_where_it_applies():
    from prover.search.goal import header_predicates
    from prover.search.induction import other_inductive_vars

    assert header_predicates(S["reach_le"][0]) == ("reach",) and header_predicates(S["flip_nodes"][0]) == ()

    def tags(name, goal):
        ctx = ProblemContext.of(S[name][0], S[name][1], "rocq")
        return {c.tag for c in ROCQ.candidates(goal, 0, ctx=ctx)[0]}

    rule = "  ============================\n  "
    # l only in the hypotheses: the induction generalises them
    assert "induction-hyp" in tags("zero_mem", f"  l : list nat\n  k : nat\n  h : total l = 0\n  hk : In k l\n{rule}k = 0")
    # nat with a premise but no recursion in sight: plain arithmetic, no induction
    assert "induction-hyp" not in tags("zero_mem", f"  n : nat\n  h : 0 < n\n{rule}n * n >= n")
    assert "induction-pred" in tags("ev_half", f"  n : nat\n  h : ev n\n{rule}exists k : nat, n = 2 * k")
    assert "induction-pred" in tags("tri_mono", f"  a, b : nat\n  h : a <= b\n{rule}tri a <= tri b")
    assert "induction-pred" not in tags("ev_half", f"  a, b : nat\n  h : a <= b\n{rule}a * a <= b * b")  # no Fixpoint
    assert "induction-pred" in tags("forall_total", f"  l : list nat\n  h : Forall (fun x => x < 5) l\n{rule}total l <= 4 * length l")
    g = parse_goal(f"  T : finType\n  x : T\n  c : comparison\n  r : R\n  z : Z\n{rule}f x c r z = c", "rocq")
    assert other_inductive_vars(g, ProblemContext()) == ["c"]  # no types, no numbers, no type variables
    assert "induction-other" not in tags("flip_nodes", f"  t : bt\n{rule}nodes (flip t) = nodes t")  # header's: struct


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


def test_premise_functions_join_the_search_queries():
    from prover.search.library import goal_symbols, hypothesis_symbols, search_queries

    g = parse_goal("  P : nat -> Prop\n  l, m : list nat\n  h : Forall P (l ++ m)\n  ============================\n  Forall P m", "rocq")
    assert goal_symbols(g) == ["Forall"] and hypothesis_symbols(g) == ["app"]
    assert search_queries(goal_symbols(g), g, premises=hypothesis_symbols(g))[-1] == "Search Forall app."
    plain = parse_goal("  l : list nat\n  ============================\n  length (rev l) = length l", "rocq")
    assert hypothesis_symbols(plain) == []


def test_boolean_comparisons_are_searched_by_their_functions():
    from prover.search.library import goal_pattern, goal_symbols

    g = parse_goal("  a, b : nat\n  ============================\n  (a =? b) = (b =? a)", "rocq")
    assert goal_symbols(g) == ["Nat.eqb"] and goal_pattern(g) == "(_ =? _) = (_ =? _)"
    z = parse_goal("  x, y : Z\n  ============================\n  (x <=? y) = negb (y <? x)", "rocq")
    assert goal_symbols(z) == ["Z.leb", "negb", "Z.ltb"]
    assert goal_pattern(parse_goal("  a, b : nat\n  ============================\n  a = b", "rocq")) is None


def test_closers_leave_out_the_tactics_the_session_lacks():
    from prover.search.goal import solve_any

    ctx = ProblemContext.of(S["dup_len"][0], S["dup_len"][1], "rocq")
    g = "  A : Type\n  l : list A\n  ============================\n  length (dup l) = 2 * length l"
    assert any("ring" in c.tactic for c in ROCQ.candidates(g, 0, ctx=ctx)[0] if c.tag == "induction-struct")
    bare = dataclasses.replace(ctx, absent_tactics=("ring", "field"))
    ind = [c for c in ROCQ.candidates(g, 0, ctx=bare)[0] if c.tag == "induction-struct"]
    assert ind and not any(re.search(r"\bring\b", c.tactic) for c in ind)
    assert solve_any(bare, ("lia", "ring", "(f_equal; auto)")) == "solve [lia | (f_equal; auto)]"
    comm = "  a, b : nat\n  ============================\n  a * b = b * a"
    assert "ring" in [c.tactic for c in ROCQ.candidates(comm, 1, ctx=ctx)[0]]
    assert "ring" not in [c.tactic for c in ROCQ.candidates(comm, 1, ctx=bare)[0]]


def test_power_of_the_induction_variable_is_unfolded_over_r():
    ctx = ProblemContext.of(S["geo3"][0], S["geo3"][1], "rocq")
    g = "  n : nat\n  ============================\n  2 * geo3 n = 3 ^ n - 1"
    (ind,) = [c for c in ROCQ.candidates(g, 0, ctx=ctx)[0] if c.tag == "induction-struct"]
    assert "cbn [pow geo3]" in ind.tactic
    ctx2 = ProblemContext.of(S["odds_square"][0], S["odds_square"][1], "rocq")
    g2 = "  n : nat\n  ============================\n  odds n = INR n ^ 2"
    assert all("cbn [pow" not in c.tactic for c in ROCQ.candidates(g2, 0, ctx=ctx2)[0] if c.tag == "induction-struct")


@pytest.mark.rocq
@pytest.mark.usefixtures("_private_cwd")
def test_absent_tactics_probe_names_what_the_header_does_not_load():
    from lean_tools.rocq.session import RocqSession
    from prover.search.search import absent_tactics
    from prover.search.table import ROCQ_IMPORTS

    cases = (("Require Import List.", ("ring", "field")), ("Require Import Arith.", ("field",)), ("Require Import Reals.", ()))
    for header, absent in cases:
        s = RocqSession(header + "\n" + ROCQ_IMPORTS, extra_args=("-w", "-all"))
        s.start()
        try:
            out = s.run_command("Theorem probe_t : True.\nProof.", timeout=60)
            assert absent_tactics(s, out.holes[0].state) == absent, header
        finally:
            s.close()


def test_a_squared_root_bound_is_also_left_to_psatz():
    # nra's hints are squares of the variables and of v - 1; (b - 4) ^ 2 >= 0 is psatz's to find
    g = "  b : R\n  h : 0 <= b\n  ============================\n  sqrt b <= (b + 4) / 4"
    sq = [c for c in ROCQ.candidates(g, 0, ctx=ProblemContext(scope="R_scope"))[0] if c.tag == "sqrt-square"]
    assert [c.tactic.rsplit("; ", 1)[-1] for c in sq] == ["nra", "psatz R 2"]
    assert "unfold Rdiv" in sq[1].tactic and sq[1].timeout == 2
    low = "  y : R\n  ============================\n  y < sqrt (y ^ 2 + 4)"
    lows = [c for c in ROCQ.candidates(low, 0, ctx=ProblemContext(scope="R_scope"))[0] if c.tag == "sqrt-square"]
    assert len(lows) == 2 and lows[1].tactic.endswith("unfold Rdiv; psatz R 2]]")


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


QUICK = {
    "map_succ_total": "induction-struct",
    "odd_2n1": "parity-spec",
    "recip2": "clear-denominators",
    "rabs_tri": "library-search",
    "dup_len": "induction-struct",
    "ev_half": "induction-pred",
}
"""Default tier: a few statements of different shapes, each a whole search of a few seconds, with
the family that must prove it."""

SLOW = {
    "frac_quarter": "clear-denominators",
    "three_fracs": "clear-denominators",
    "flat_len": "induction-app",
    "sqsum_rev": "induction-app-lemma",
    "fold_pos": "induction-hyp",
    "mem_total": "induction-hyp",
    "pos_total": "induction-hyp",
    "tree_bound": "induction-hyp",
    "zero_mem": "induction-hyp",
    "filter_split": "induction-if",
    "keep_len": "induction-if",
    "compopp_eq": "induction-other",
    "digits": "induction-other",
    "flipc": "induction-other",
    "str_len": "induction-other",
    "take_len": "induction-pair",
    "ev_plus": "induction-pred",
    "forall_total": "induction-pred",
    "reach_le": "induction-pred",
    "tri_mono": "induction-pred",
    "geo3": "induction-struct",
    "nonempty_cons": "induction-struct",
    "th_closed": "induction-struct",
    "forall_app": "library-search",
    "leb_self": "library-search",
    "z_sym_sq": "nra-hint",
    "odd_sum": "parity-cases",
    "z_odd_sum": "parity-cases",
    "sqrt_quarter": "sqrt-square",
}
"""Tier ``slow`` (2-5 s each): the other statements with the family that must prove each."""


@pytest.mark.rocq
@pytest.mark.usefixtures("_private_cwd")
@pytest.mark.parametrize("name", sorted(QUICK))
def test_family_proves_its_statement(name):
    res = _prove(name)
    assert res.proved, res.reason
    assert QUICK[name] in res.tags


@pytest.mark.slow
@pytest.mark.rocq
@pytest.mark.usefixtures("_private_cwd")
@pytest.mark.parametrize("name", sorted(SLOW))
def test_family_proves_its_statement_slow_tier(name):
    res = _prove(name)
    assert res.proved, res.reason
    assert SLOW[name] in res.tags


@pytest.mark.slow
@pytest.mark.rocq
@pytest.mark.usefixtures("_private_cwd")
@pytest.mark.parametrize("name", sorted(set(S) - set(QUICK) - set(SLOW)))
def test_every_family_statement_is_proved(name):
    res = _prove(name, seconds=30)
    assert res.proved, res.reason
