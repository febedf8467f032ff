"""Arithmetic deciders: the closers that decide a goal in one call (``lia``, ``lra``, ``nia``,
``nra``, ``field``, ``ring``, ``psatz``, computation), and the hinted forms of ``nra`` that
give it the squares or cancellations it cannot find alone.

What is covered: linear and nonlinear arithmetic over ``nat``, ``Z`` and ``R``; closed goals by
computation; quadratic extrema (completed squares), AM-GM shapes (squares of differences),
cancelling a nonzero factor, an equation between integer unknowns known through their real
casts, and two-root disjunctions. What is not covered: modular arithmetic
(``numbertheory.py``), case splits (``cases.py``), radicals and transcendental functions
(``reals.py``, ``transcendental.py``).
"""

from __future__ import annotations

import re

from .family import Focus, close, family
from .goal import NAME, Candidate, GoalInfo, is_eq

DOMAIN = "arithmetic"


@family("refl", DOMAIN, "close")
def refl(f: Focus) -> list[Candidate]:
    """Any goal: both sides may be equal by computation (``2 + 2 = 4``, ``f 0 = f 0``)."""
    return [close("reflexivity", 1, tag="refl")]


@family("lia", DOMAIN, "close")
def lia(f: Focus) -> list[Candidate]:
    """Goals over ``nat``/``Z``: linear integer arithmetic decides them (``n < 4 -> n <= 3``)."""
    return [close("lia", 2)] if f.d.natural or f.d.integer else []


@family("lra", DOMAIN, "close")
def lra(f: Focus) -> list[Candidate]:
    """Goals over ``R``: linear real arithmetic decides them (``x < y -> x + 1 < y + 1``)."""
    return [close("lra", 2)] if f.d.real else []


@family("field", DOMAIN, "close")
def field(f: Focus) -> list[Candidate]:
    """A real equation: ``field`` normalises both sides as fractions (``x / 2 + x / 2 = x``);
    nonzero denominators are side goals it may leave (then it fails as a closer)."""
    return [close("field", 1)] if f.d.real and is_eq(f.concl) else []


@family("ring", DOMAIN, "close")
def ring(f: Focus) -> list[Candidate]:
    """An equation below the root (after rewriting or instantiation): a ring identity
    (``(a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2``). At the root ``lia``/``field`` cover it."""
    return [close("ring", 1)] if not f.root and is_eq(f.concl) and f.ctx.knows("ring") else []


@family("nia", DOMAIN, "close")
def nia(f: Focus) -> list[Candidate]:
    """Goals over ``nat``/``Z`` with products of unknowns (``x * y = 6 -> x <= 6`` for ``x, y > 0``)."""
    return [close("nia", 2)] if f.d.natural or f.d.integer else []


@family("nra", DOMAIN, "close")
def nra(f: Focus) -> list[Candidate]:
    """Goals over ``R`` with products of unknowns (``0 <= x -> 0 <= x * x + x``)."""
    return [close("nra", 2)] if f.d.real else []


@family("vm_compute", DOMAIN, "close")
def vm_compute(f: Focus) -> list[Candidate]:
    """A goal with no hypotheses: it may be a closed computation (``Nat.gcd 12 18 = 6``)."""
    return [close("vm_compute; reflexivity", 2, tag="vm_compute")] if not f.g.hyps else []


def nonlinear(g: GoalInfo) -> bool:
    """A product of two non-numeral factors or a power appears: worth an SOS/psatz call."""
    return bool(re.search(r"\^|[A-Za-z_)]\s*\*\s*[A-Za-z_(]", g.all_text))


@family("psatz", DOMAIN, "close")
def psatz(f: Focus) -> list[Candidate]:
    """A nonlinear real goal: the Positivstellensatz of degree 2 finds products of hypotheses
    that ``nra`` misses (``0 < a -> 0 < b -> a * b > 0``-style combinations)."""
    return [close("psatz R 2", 2, tag="psatz")] if f.d.real and nonlinear(f.g) else []


def vertex_hints(g: GoalInfo, limit: int = 3) -> list[str]:
    """Completed squares: ``pose proof (pow2_ge_0 (2*a*x + b))`` for a real ``x`` that occurs as
    ``a * x ^ 2`` and ``b * x`` in the same unquantified fact (``2 * x ^ 2 + 5 * x + c <= 0``
    gives ``(4 * x + 5) ^ 2 >= 0``): the square nra needs for a quadratic's extremum."""
    out: list[str] = []
    texts = [h.type for h in g.hyps if "forall" not in h.type] + [g.concl]
    for x in [v for v in g.vars_of("R") if NAME.match(v)][:4]:
        xe = re.escape(x)
        for raw in texts:
            text = " ".join(raw.split())
            sq = re.search(rf"(?:(?<![\w.*/^])|(?<=[(+\-] ))(?:(\d+) \* )?{xe} \^ 2\b", text)
            lin = re.search(rf"([+-]) (?:(\d+) \* )?{xe}\b(?! \^)(?! \*)", text) or re.search(rf"^(?:(\d+) \* )?{xe}\b(?! \^)(?! \*)", text)
            if not sq or not lin:
                continue
            a = int(sq.group(1) or 1)
            if lin.re.pattern.startswith("^"):
                sign, b = "+", int(lin.group(1) or 1)
            else:
                sign, b = lin.group(1), int(lin.group(2) or 1)
            hint = f"pose proof (pow2_ge_0 ({2 * a} * {x} {sign} {b}))"
            if hint not in out:
                out.append(hint)
    return out[:limit]


@family("vertex-nra", DOMAIN, "close")
def vertex_nra(f: Focus) -> list[Candidate]:
    """A real quadratic ``a * x ^ 2 + b * x + c`` compared with a bound (its extremum): ``nra``
    with the completed square ``(2 a x + b) ^ 2 >= 0``, which it does not guess."""
    if not (f.d.real and nonlinear(f.g)):
        return []
    hints = vertex_hints(f.g)
    return [close("; ".join(hints) + "; nra", 2, tag="vertex-nra")] if hints else []


def square_hints(g: GoalInfo) -> list[str]:
    """``pose proof (pow2_ge_0 (x - y))`` for real variables, pairs first: the usual nra help."""
    xs = [v for v in g.vars_of("R") if NAME.match(v)][:4]
    hints = [f"pose proof (pow2_ge_0 ({a} - {b}))" for i, a in enumerate(xs) for b in xs[i + 1 :]]
    hints += [f"pose proof (pow2_ge_0 {a})" for a in xs]
    return hints[:8]


@family("nra-hint", DOMAIN, "close")
def nra_hint(f: Focus) -> list[Candidate]:
    """A real inequality at the root with named real variables (``a ^ 2 + b ^ 2 >= 2 * a * b``):
    ``nra`` with the squares of the variables and of their differences (AM-GM shapes); over
    ``Z`` the same squares (``Z.square_nonneg``) for ``nia``, which does not invent them."""
    if not f.root:
        return []
    if f.d.real:
        hints = square_hints(f.g)
        return [close("; ".join(hints) + "; nra", 2, tag="nra-hint")] if hints else []
    zs = [v for v in f.g.vars_of("Z") if NAME.match(v)][:4]
    if len(zs) < 2 or not re.search(r"<=|>=|<|>", f.concl):
        return []
    hints = [f"pose proof (Z.square_nonneg ({a} - {b}))" for i, a in enumerate(zs) for b in zs[i + 1 :]][:6]
    return [close("; ".join(hints) + "; nia", 2, tag="nra-hint")]


@family("fsimp-nra", DOMAIN, "close")
def fsimp_nra(f: Focus) -> list[Candidate]:
    """A real goal at the root with divisions: fractions cleared by ``field_simplify``, then
    ``nra`` (``x / 2 <= x`` for ``x >= 0``)."""
    if not (f.d.real and f.root and f.d.division):
        return []
    return [close("field_simplify; nra", 2, tag="fsimp-nra")]


@family("cast-back", DOMAIN, "close")
def cast_back(f: Focus) -> list[Candidate]:
    """``n = 37`` for a ``nat``/``Z`` unknown ``n`` known only through its real cast
    (``INR n = 37``): compare the casts (``eq_IZR``) and decide over ``R``."""
    g, d = f.g, f.d
    m = re.fullmatch(r"\(?([A-Za-z_]\w*) = (\d+)\)?(%nat|%Z)?", f.concl.strip())
    if not (d.real and m and m.group(1) in g.vars_of("nat", "Z")):
        return []
    v = re.escape(m.group(1))
    if not re.search(rf"\b(?:INR|IZR|Z\.of_nat|Z_of_nat)\s+{v}\b", g.all_text):
        return []
    nat = m.group(1) in g.vars_of("nat")
    tac = ("rewrite ?INR_IZR_INZ in *; apply Nat2Z.inj; " if nat else "") + "apply eq_IZR; simpl; first [lra | nra]"
    return [close(tac, 2, tag="cast-back")]


@family("fseq", DOMAIN, "close")
def fseq(f: Focus) -> list[Candidate]:
    """A real equation with divisions (``a / b = c`` with ``b <> 0`` known): the denominators
    multiplied out by ``field_simplify_eq``, the polynomial identity left to ``lra``/``nra``."""
    if f.d.real and is_eq(f.concl) and f.d.division:
        return [close("field_simplify_eq; solve [lra | nra | auto]", 2, tag="fseq")]
    return []


def diseq(t: str) -> tuple[str, str] | None:
    """``(A, B)`` for a hypothesis ``A <> B`` with ``B`` not zero (a factor to cancel)."""
    m = re.fullmatch(r"\s*([^<>=]+?)\s*<>\s*([^<>=]+?)\s*", t)
    if not m or m.group(2) == "0" or "/\\" in t or "\\/" in t:
        return None
    return m.group(1), m.group(2)


@family("cancel-diseq", DOMAIN, "close")
def cancel_diseq(f: Focus) -> list[Candidate]:
    """A real equation with a hypothesis ``A <> B`` (``x <> y``, ``x ^ 2 - y ^ 2 = x - y``):
    both sides multiplied by the nonzero ``A - B`` (``Rmult_eq_reg_l``), which ``nra`` then
    relates to the hypotheses."""
    if not (f.d.real and is_eq(f.concl)):
        return []
    out = []
    for h, (left, right) in [(h, lr) for h in f.g.hyps if (lr := diseq(h.type))][:2]:
        tac = f"apply (Rmult_eq_reg_l ({left} - ({right}))); [nra | intro; apply {h.names[0]}; lra]"
        out.append(close(tac, 2, tag="cancel-diseq"))
    return out


@family("psatz3", DOMAIN, "close")
def psatz3(f: Focus) -> list[Candidate]:
    """A real goal at the root with cubes or fourth powers: the Positivstellensatz of degree 3."""
    if f.d.real and f.root and re.search(r"\^ ?[34]", f.g.all_text):
        return [close("psatz R 3", 3, tag="psatz3")]
    return []


@family("roots", DOMAIN, "close")
def roots(f: Focus) -> list[Candidate]:
    """``x = a \\/ x = b`` over ``R`` (the roots of a quadratic): ``(x - a) (x - b) = 0`` by
    ``nra`` from the hypotheses, then ``Rmult_integral`` picks the side."""
    m = re.match(r"^\(?(\w+) = ([^\\/]+?)\)? \\/ \(?\1 = ([^\\/]+?)\)?$", f.concl)
    if not (f.d.real and m):
        return []
    x, a, b = m.group(1), m.group(2).strip(), m.group(3).strip()
    tac = (
        f"assert (Hroots : ({x} - ({a})) * ({x} - ({b})) = 0) by nra; "
        "apply Rmult_integral in Hroots; destruct Hroots; [left | right]; lra"
    )
    return [close(tac, 2, tag="roots")]
