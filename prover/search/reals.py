"""Real algebra: fractions, casts, square roots and complex numbers over ``R``.

What is covered: clearing denominators (``field_simplify`` on the goal and on hypotheses),
the signs of ``INR`` casts and the casts pushed through ``+``/``*``; square roots: positivity
and ``sqrt A * sqrt A = A`` for ``nra``, ``sqrt A = B`` as ``B * B = A`` (``sqrt_lem_1``),
comparing the squares of two nonnegative sides, products of roots merged, hypotheses
``sqrt A = B`` squared, closed radicals simplified (``sqrt 63 = 3 * sqrt 7``) or evaluated
(``sqrt 49 = 7``); Coquelicot's ``C`` split into real and imaginary parts.
What is not covered: real inequalities with reciprocals or radicals as a whole
(``realineq.py``), transcendental functions (``transcendental.py``), nested radicals.
"""

from __future__ import annotations

import math
import re

from .family import Focus, close, family, step
from .goal import Candidate, Domain, GoalInfo, args_of, eval_numeral, is_eq, leading_arg

DOMAIN = "reals"


COMPLEX_CLOSER = (
    "repeat match goal with z : C |- _ => destruct z end; unfold Cminus, Ci, RtoC, Cplus, Cmult, Copp in *; "
    "simpl in *; repeat match goal with H : (_, _) = (_, _) |- _ => injection H; clear H; intros end; "
    "repeat split; try apply injective_projections; simpl in *; nra"
)
"""Coquelicot ``C`` is ``R * R``: split every complex variable and equation into real parts."""


def is_complex(g: GoalInfo, d: Domain) -> bool:
    return "C" in d.flags or bool(re.search(r"\bCi\b|%C\b", g.all_text))


def sqrt_args(g: GoalInfo) -> list[str]:
    return args_of(g, "sqrt")


def sqrt_hints(g: GoalInfo, limit: int = 3) -> list[str]:
    """``sqrt A >= 0`` and ``sqrt A * sqrt A = A`` for each ``sqrt A`` in sight (A proved >= 0 by nra)."""
    out = []
    for a in sqrt_args(g)[:limit]:
        out.append(f"pose proof (sqrt_pos {a})")
        out.append(f"try pose proof (sqrt_sqrt {a} ltac:(nra))")
    return out


def sqrt_equations(g: GoalInfo, limit: int = 2) -> list[str]:
    """Square a hypothesis ``sqrt A = B`` into ``B * B = A``. ``0 <= A`` comes from the
    hypothesis itself: were ``A < 0``, ``sqrt A`` would be ``0`` (``sqrt_neg_0``)."""
    out = []
    for h in g.hyps:
        typ = " ".join(h.type.split())
        if "forall" in typ or not is_eq(typ):
            continue
        left, _, right = typ.partition(" = ")
        for side, flip, other in ((left, "", right), (right, "<- ", left)):
            if not side.startswith("sqrt "):
                continue
            arg = leading_arg(side[5:].lstrip())
            if not arg or side[5:].strip() != arg:
                continue
            n = h.names[0]
            arg2 = leading_arg(other[5:].lstrip()) if other.startswith("sqrt ") else None
            # sqrt A = sqrt 19 with A < 0 would make sqrt 19 = 0
            neg = f"first [lra | pose proof (sqrt_lt_R0 {arg2} ltac:(lra)); lra]" if arg2 else "lra"
            out.append(
                f"assert (Hsq_ : 0 <= {arg}) by (destruct (Rle_or_lt 0 {arg}) as [Hp_ | Hn_]; [exact Hp_ | "
                f"rewrite (sqrt_neg_0 {arg} (Rlt_le _ _ Hn_)) in {n}; {neg}]); "
                f"pose proof (sqrt_sqrt {arg} Hsq_) as Hss_; rewrite {flip}{n} in Hss_"
            )
    return out[:limit]


def perfect_square_roots(g: GoalInfo) -> list[tuple[str, str]]:
    """``(A, K)`` for each ``sqrt A`` whose argument is a closed numeral expression equal to
    ``K * K`` with ``K`` a non-negative rational (computed here, proved by ``sqrt_lem_1``)."""
    out = []
    for arg in sqrt_args(g):
        value = eval_numeral(arg)
        if value is None or value < 0:
            continue
        num, den = value.numerator, value.denominator
        rn, rd = math.isqrt(num), math.isqrt(den)
        if rn * rn == num and rd * rd == den:
            out.append((arg, f"{rn}" if rd == 1 else f"{rn} / {rd}"))
    return out[:3]


def square_part(n: int) -> int:
    """The largest ``k`` with ``k * k`` dividing ``n``. Primes up to the cube root are divided
    out; what is left has at most two prime factors, so it is a square exactly when it is ``p * p``."""
    k, p = 1, 2
    while p * p * p <= n:
        while n % (p * p) == 0:
            n //= p * p
            k *= p
        if n % p == 0:
            n //= p
        p += 1
    r = math.isqrt(n)
    return k * r if r > 1 and r * r == n else k


def radicals(g: GoalInfo, limit: int = 3) -> list[tuple[str, int, int]]:
    """``(A, k, m)`` for each ``sqrt A`` with ``A`` a closed integer ``k * k * m``, ``k > 1``
    largest and ``m > 1``: ``sqrt 63 = 3 * sqrt 7`` puts radicals on a common atom."""
    out = []
    for arg in sqrt_args(g):
        value = eval_numeral(arg)
        if value is None or value.denominator != 1 or not 1 < value <= 10**12:
            continue
        n = int(value)
        k = square_part(n)
        if k > 1 and n // (k * k) > 1:
            out.append((arg, k, n // (k * k)))
    return out[:limit]


@family("sqrt-nra", DOMAIN, "close")
def sqrt_nra(f: Focus) -> list[Candidate]:
    """A real goal with ``sqrt A``: ``nra`` given ``sqrt A >= 0`` and ``sqrt A * sqrt A = A``
    (the side ``A >= 0`` by ``nra``), the two facts it needs to treat the root as an unknown."""
    if not (f.d.real and "sqrt" in f.g.all_text):
        return []
    hints = sqrt_hints(f.g)
    return [close("; ".join(hints) + "; nra", 2, tag="sqrt-nra")] if hints else []


@family("complex", DOMAIN, "close")
def complex_parts(f: Focus) -> list[Candidate]:
    """A goal about Coquelicot complex numbers (``C`` variables, ``Ci``, ``%C``): every variable
    and equation split into real and imaginary parts, then ``nra``."""
    if f.g.vars_of("C") or is_complex(f.g, f.d):
        return [close(COMPLEX_CLOSER, 2, tag="complex")]
    return []


@family("field_simplify", DOMAIN, "step")
def field_simplify(f: Focus) -> list[Candidate]:
    """A real goal with divisions: the goal as one fraction (``field_simplify``), closed on the
    spot when ``lra`` or ``auto`` suffices."""
    return [step("field_simplify; try solve [auto | lra]", 0.8, tag="field_simplify")] if f.d.real and f.d.division else []


@family("field_simplify-h", DOMAIN, "step")
def field_simplify_h(f: Focus) -> list[Candidate]:
    """A real hypothesis equation with divisions (``x / 3 = 2``): denominators multiplied out."""
    if not (f.d.real and f.d.division):
        return []
    return [
        step(f"field_simplify_eq in {h.names[0]}; try solve [auto | lra]", 0.6, tag="field_simplify-h")
        for h in f.g.hyps
        if "/" in h.type and not h.type.startswith("forall") and "=" in h.type
    ]


@family("unfold-rsqr", DOMAIN, "step")
def unfold_rsqr(f: Focus) -> list[Candidate]:
    """``Rsqr x`` in a real goal (printed ``x²``): unfolded to ``x * x`` for the arithmetic closers."""
    return [step("unfold Rsqr in *", 0.5, tag="unfold")] if f.d.real and ("Rsqr" in f.g.all_text or "²" in f.g.all_text) else []


@family("inr-pos", DOMAIN, "step")
def inr_pos(f: Focus) -> list[Candidate]:
    """``INR n`` for ``nat`` variables with no sign hypothesis yet: ``0 <= INR n`` and, where
    ``0 < n``, ``0 < INR n`` (signs ``field_simplify``'s denominators and ``nra`` need)."""
    g = f.g
    if not f.d.real:
        return []
    casts = [v for v in g.vars_of("nat") if re.search(rf"\bINR\s+{re.escape(v)}\b", g.all_text)][:4]
    if not casts or any(re.match(r"0\s*<=?\s*INR\b", h.type) for h in g.hyps):
        return []
    parts = [f"pose proof (pos_INR {v}); try pose proof (lt_0_INR {v} ltac:(lia))" for v in casts]
    return [step("; ".join(parts), 0.3, tag="inr-pos")]


@family("cast", DOMAIN, "step")
def cast(f: Focus) -> list[Candidate]:
    """``INR``/``IZR`` of sums and products: the casts pushed to the leaves."""
    if f.d.real and ("INR" in f.g.all_text or "IZR" in f.g.all_text):
        return [step("repeat rewrite ?plus_INR, ?mult_INR, ?minus_INR, ?S_INR, ?plus_IZR, ?mult_IZR, ?opp_IZR in *", 0.8, tag="cast")]
    return []


@family("sqrt-lem", DOMAIN, "step")
def sqrt_lem(f: Focus) -> list[Candidate]:
    """``sqrt A = B`` (or ``B = sqrt A``): ``sqrt_lem_1`` turns it into ``B * B = A`` with ``A``
    and ``B`` nonnegative."""
    c = f.concl
    if not (f.d.real and is_eq(c)):
        return []
    out = []
    if re.match(r"^sqrt\b.*=", c):
        out.append(step("apply sqrt_lem_1; try nra", 0.4, tag="sqrt-lem"))
    if re.search(r"=\s*sqrt\b", c):
        out.append(step("symmetry; apply sqrt_lem_1; try nra", 0.4, tag="sqrt-lem"))
    return out


@family("square-eq", DOMAIN, "step")
def square_eq(f: Focus) -> list[Candidate]:
    """An equation of reals with a root inside one side (``x = 2 * sqrt 3`` from ``x >= 0`` and
    ``x * x = 12``): two nonnegative sides are equal when their squares are (``Rsqr_inj``)."""
    c = f.concl
    if not (f.d.real and is_eq(c) and "sqrt" in c and not c.lstrip().startswith("sqrt")):
        return []
    pos = "; ".join(sqrt_hints(f.g))
    return [step(f"apply Rsqr_inj; [solve [{pos}; nra] | solve [{pos}; nra] | unfold Rsqr]", 0.4, tag="square-eq")]


@family("sqrt-mult", DOMAIN, "step")
def sqrt_mult(f: Focus) -> list[Candidate]:
    """``sqrt a * sqrt b`` in the conclusion: merged into ``sqrt (a * b)`` (nonnegative factors
    by ``nra``), one radical to square."""
    if f.d.real and re.search(r"\bsqrt\s+(?:\w+|\([^()]*\))\s*\*\s*sqrt\b", f.concl):
        return [step("rewrite <- !sqrt_mult by nra", 0.4, tag="sqrt-mult")]
    return []


@family("sqrt-square-hyp", DOMAIN, "step")
def sqrt_square_hyp(f: Focus) -> list[Candidate]:
    """A hypothesis ``sqrt A = B``: squared into ``B * B = A``, ``0 <= A`` taken from the
    hypothesis itself (were ``A < 0``, ``sqrt A`` would be ``0``)."""
    return [step(t, 0.4, tag="sqrt-square") for t in sqrt_equations(f.g)] if f.d.real else []


@family("sqrt-factor", DOMAIN, "step")
def sqrt_factor(f: Focus) -> list[Candidate]:
    """Closed radicals ``sqrt N`` with a square factor (``sqrt 63``): rewritten as ``k * sqrt m``
    (``4 * sqrt 5``), so radicals of one number become one atom for ``lra``/``nra``."""
    parts = [
        f"replace (sqrt {a}) with ({k} * sqrt {m}) by (symmetry; apply sqrt_lem_1; [lra | pose proof (sqrt_pos {m}); nra | "
        f"replace ({k} * sqrt {m} * ({k} * sqrt {m})) with ({k} * {k} * (sqrt {m} * sqrt {m})) by ring; rewrite sqrt_sqrt by lra; lra])"
        for a, k, m in (radicals(f.g) if f.d.real else [])
    ]
    return [step("; ".join(parts), 0.3, tag="sqrt-factor")] if parts else []


@family("sqrt-eval", DOMAIN, "step")
def sqrt_eval(f: Focus) -> list[Candidate]:
    """``sqrt A`` of a closed perfect square (``sqrt 49``, ``sqrt (9 / 4)``): replaced by its value."""
    return [
        step(f"replace (sqrt {arg}) with ({value}) by (symmetry; apply sqrt_lem_1; lra)", 0.3, tag="sqrt-eval")
        for arg, value in perfect_square_roots(f.g)
    ]
