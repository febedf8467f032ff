"""The registry of search families: its invariants, every family answering the statement written
for it (``family_cases.py``) as text, and on real Rocq doing its job there."""


import pytest
from family_cases import BELOW_ROOT, CASES  # tests/search is on sys.path (rootless import)

from prover.search import registry
from prover.search.family import Focus
from prover.search.goal import ProblemContext, parse_goal, rocq_domain
from prover.search.table import ROCQ, ROCQ_IMPORTS


def _focus(case, goal_text: str) -> Focus:
    ctx = ProblemContext.of(case.header, case.statement, "rocq")
    g = parse_goal(goal_text, "rocq")
    return Focus(g=g, d=rocq_domain(g, ctx.scope), ctx=ctx, depth=case.depth, facts=case.facts)


def test_names_are_unique_and_every_family_is_documented():
    names = [f.name for f in registry.FAMILIES]
    assert len(names) == len(set(names))
    assert all(f.doc and f.domain for f in registry.FAMILIES)
    assert {f.stage for f in registry.CLOSERS} == {"close"} and {f.stage for f in registry.STEPS} == {"step"}


def test_every_family_has_a_statement_written_for_it():
    assert set(CASES) == {f.name for f in registry.FAMILIES}


def test_by_name_names_the_known_families_when_asked_for_another():
    assert registry.by_name("lia").domain == "arithmetic"
    with pytest.raises(KeyError, match="no search family 'nope'; known: induction-struct"):
        registry.by_name("nope")


@pytest.mark.parametrize("name", sorted(CASES))
def test_family_answers_its_statement_with_candidates_of_its_stage(name):
    fam, case = registry.by_name(name), CASES[name]
    out = fam(_focus(case, case.goal_text))
    assert out, f"{name} proposed nothing for {case.statement}"
    assert {c.kind for c in out} == {fam.stage}


def test_families_stay_quiet_on_a_goal_outside_their_domain():
    case = CASES["lia"]
    quiet = {f.name for f in registry.FAMILIES if not f(_focus(case, case.goal_text))}
    assert {"lra", "nra", "field", "sqrt-nra", "gcd-lcm", "clear-denominators", "induction-struct", "complex"} <= quiet


def test_facts_switch_families_on_and_off():
    below = BELOW_ROOT["bound-split"]
    fam = registry.by_name("bound-split")
    assert fam(_focus(below, below.goal_text))
    without = type(below)(below.header, below.binders, below.concl, depth=below.depth)
    assert fam(_focus(without, without.goal_text)) == []
    # the gcd step records its quotients; a path that carries them gets no second gcd step
    gcd = CASES["gcd-lcm"]
    (step,) = registry.by_name("gcd-lcm")(_focus(gcd, gcd.goal_text))
    again = type(gcd)(gcd.header, gcd.binders, gcd.concl, depth=1, facts=step.facts)
    assert registry.by_name("gcd-lcm")(_focus(again, again.goal_text)) == []
    # rewrite-ih rewrites only with the hypotheses an induction step named
    ih = CASES["rewrite-ih"]
    assert registry.by_name("rewrite-ih")(_focus(type(ih)(ih.header, ih.binders, ih.concl, depth=1), ih.goal_text)) == []


def test_explain_lists_the_families_that_answer():
    case = CASES["roots"]
    f = _focus(case, case.goal_text)
    fired = [fam.name for fam, _ in registry.explain(f.g, f.d, f.ctx)]
    assert fired[:3] == ["refl", "lra", "field"] and "roots" in fired and "lia" not in fired


def _run_case(pool, case, name):
    """Open the statement in a warm session; the family's candidates on the printed goal; True
    when one of them does its job (a closer proves the goal, a step runs and changes it)."""
    from prover.search.portfolio import try_candidate

    fam = registry.by_name(name)
    with pool.session("rocq", case.header.rstrip() + "\n" + ROCQ_IMPORTS) as s:
        out = s.run_command(case.statement, timeout=60)
        assert out.ok and out.holes, f"{name}: statement does not open: {out.errors[:1]}"
        state, goal = out.holes[0].state, out.goals[0]
        cands = fam(_focus(case, goal))
        assert cands, f"{name} proposed nothing for the printed goal:\n{goal}"
        errors = []
        for cand in cands:
            att = try_candidate(s, state, cand, ROCQ)
            if att.ok and (att.proved if fam.stage == "close" else att.goals != (goal,)):
                return True
            errors.append(att.error or f"left {att.goals[:1]}")
        pytest.fail(f"{name}: no candidate did its job on\n{goal}\n{errors}")


@pytest.fixture(scope="module")
def pool():
    from lean_tools.pool import SessionPool
    from lean_tools.rocq.session import RocqSession

    p = SessionPool(lambda language, header: RocqSession(header, extra_args=("-w", "-all")), max_sessions=2)
    yield p
    p.close()


@pytest.fixture
def _private_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


@pytest.mark.rocq
@pytest.mark.usefixtures("_private_cwd")
@pytest.mark.parametrize("name", sorted(CASES))
def test_family_does_its_job_on_real_rocq(pool, name):
    assert _run_case(pool, CASES[name], name)


@pytest.mark.rocq
@pytest.mark.usefixtures("_private_cwd")
def test_bound_split_below_the_root_on_real_rocq(pool):
    assert _run_case(pool, BELOW_ROOT["bound-split"], "bound-split")
