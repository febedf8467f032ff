"""The registry of search families: every family the Rocq table asks, in the order its
candidates are tried, each with its name (used in traces), domain and stage.

A family is a small function ``(Focus) -> list[Candidate]`` (``family.py``) whose docstring says
the goal shape it answers and why. Families live in domain modules of a few hundred lines:

- ``arith.py``: arithmetic deciders (``lia``, ``nra``, ``field``, hinted ``nra``, ...);
- ``logic.py``: propositional structure (``intros``, ``split``, witnesses, ...);
- ``numbertheory.py``: remainders, divisibility, gcd/lcm, closed integer computation;
- ``cases.py``: case splits on bounded variables, remainders, factor pairs, signs;
- ``reals.py``: fractions, casts, square roots, complex numbers;
- ``transcendental.py``: ``ln``, ``exp``, ``Rpower``, trigonometry, ``up``;
- ``realineq.py``: real inequalities with reciprocals and radicals;
- ``functional.py``: functional equations; ``sequences.py``: recurrences and sums;
- ``rewriting.py``: definitions and stated values; ``induction.py``: induction;
- ``library.py``: standard-library lemma families (and lemmas found by ``Search``, which needs
  the session and is asked by ``search.py``).

Families pass facts to each other as typed records (``goal.Fact``: ``Quotients``,
``ClosedForm``, ``InductionHypotheses``) carried by candidates and accumulated along the search
path, never through the names of the hypotheses they create.

Closers come in three groups: the induction and library families first (they answer goals about
inductive data or library functions, where ``lia``/``nra`` fail anyway and under a short budget
would spend it first), then the arithmetic and domain closers, then the real-inequality families
(real comparisons are often closed by ``lra``/``nra`` alone).
"""

from __future__ import annotations

from . import arith, cases, functional, induction, library, logic, numbertheory, realineq, reals, rewriting, sequences, transcendental
from .family import Family, Focus
from .goal import Candidate, Domain, Fact, GoalInfo, ProblemContext

CLOSERS: tuple[Family, ...] = (
    induction.structural_induction,
    induction.recursion_induction,
    induction.scaled_argument_induction,
    induction.append_lemma_induction,
    induction.hypothesis_induction,
    induction.predicate_induction,
    induction.other_type_induction,
    induction.paired_induction,
    library.parity_closers,
    library.lemma_closers,
    logic.apply_local,
    arith.refl,
    arith.lia,
    arith.lra,
    arith.field,
    arith.ring,
    arith.nia,
    arith.nra,
    logic.tauto,
    logic.congruence,
    arith.vm_compute,
    arith.psatz,
    arith.vertex_nra,
    arith.nra_hint,
    arith.fsimp_nra,
    numbertheory.mod_push,
    numbertheory.nat_mod,
    numbertheory.z_mod,
    arith.cast_back,
    arith.fseq,
    reals.sqrt_nra,
    arith.cancel_diseq,
    transcendental.trig_nra,
    reals.complex_parts,
    arith.psatz3,
    numbertheory.nat_compute,
    numbertheory.z_compute,
    cases.mod_cases,
    cases.interval_split,
    cases.least_split,
    cases.bound_split,
    cases.factor_split,
    cases.pair_split,
    arith.roots,
    realineq.cleared_denominators,
    realineq.radical_squaring,
)
"""Closers, in the order they are tried on a goal (cheap and often useful first)."""

STEPS: tuple[Family, ...] = (
    logic.intros,
    logic.intro,
    logic.split,
    logic.disjunct,
    logic.destruct_and,
    logic.destruct_or,
    logic.subst,
    rewriting.rewrite_def,
    rewriting.unfold_def,
    rewriting.simpl,
    reals.field_simplify,
    reals.field_simplify_h,
    reals.unfold_rsqr,
    reals.inr_pos,
    reals.cast,
    reals.sqrt_lem,
    reals.square_eq,
    rewriting.f_equal,
    reals.sqrt_mult,
    transcendental.ln_expand,
    transcendental.exp_log,
    transcendental.ln_factor,
    transcendental.ln_pos,
    transcendental.trig_values,
    transcendental.trig_expand,
    transcendental.up_eval,
    transcendental.unfold_int_part,
    sequences.unroll,
    transcendental.rpower_root,
    sequences.arith_seq,
    reals.sqrt_square_hyp,
    reals.sqrt_factor,
    reals.sqrt_eval,
    cases.minmax_cases,
    cases.rabs_cases,
    functional.instantiate,
    transcendental.rpower_eval,
    functional.shift_eval,
    numbertheory.unfold_divide,
    logic.forall_and,
    rewriting.rewrite_value,
    rewriting.rewrite_local,
    functional.inverse,
    numbertheory.gcd_linear,
    numbertheory.gcd_lcm,
    logic.witness,
    transcendental.pi_bounds,
    numbertheory.big_nat,
    sequences.sum_index,
    induction.induction_step,
    induction.rewrite_ih,
    cases.exp_bound,
    cases.pos_destruct,
    cases.case_split,
)
"""Steps, in the order they are proposed (the search orders children by their costs)."""

FAMILIES: tuple[Family, ...] = CLOSERS + STEPS
"""Every family, closers first."""


def by_name(name: str) -> Family:
    """The family registered as ``name``; raises ``KeyError`` naming the known ones."""
    for fam in FAMILIES:
        if fam.name == name:
            return fam
    raise KeyError(f"no search family {name!r}; known: {', '.join(f.name for f in FAMILIES)}")


def rocq_candidates(
    g: GoalInfo, d: Domain, ctx: ProblemContext, depth: int, facts: tuple[Fact, ...] = ()
) -> tuple[list[Candidate], list[Candidate]]:
    """(closers, steps) of every registered family for the focused goal, in registry order."""
    f = Focus(g=g, d=d, ctx=ctx, depth=depth, facts=facts)
    return [c for fam in CLOSERS for c in fam(f)], [c for fam in STEPS for c in fam(f)]


def explain(
    g: GoalInfo, d: Domain, ctx: ProblemContext, depth: int = 0, facts: tuple[Fact, ...] = ()
) -> list[tuple[Family, list[Candidate]]]:
    """The families that answer the goal, each with its candidates, in registry order (for
    inspecting why a goal gets the candidates it gets)."""
    f = Focus(g=g, d=d, ctx=ctx, depth=depth, facts=facts)
    return [(fam, out) for fam in FAMILIES if (out := fam(f))]
