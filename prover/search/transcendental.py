"""Transcendental functions over ``R``: logarithms, exponentials, powers with real exponents,
trigonometry, ``PI``, and the integer part (``up``, ``Int_part``).

What is covered: logarithms of products, quotients and powers expanded; logarithms of
numerals put on prime bases (``ln 243 = 5 * ln 3``, ``ln 98 = 1 * ln 2 + 2 * ln 7``) with their signs;
exponential equations made linear (``exp_inv``, ``ln`` of both sides); ``Rpower`` of numerals
with integer or rational exponents evaluated; sine and cosine at the standard angles, sums and
doubles of angles expanded, ``sin ^ 2 + cos ^ 2 = 1`` for ``nra``; bounds of ``PI``; ``up A`` of
a closed ``A`` evaluated. What is not covered: inverse trigonometric functions, limits.
"""

from __future__ import annotations

import math
import re

from .family import Focus, close, family, step
from .goal import Candidate, GoalInfo, args_of, eval_numeral, int_root, leading_arg

DOMAIN = "transcendental"


LN_EXPAND = (
    "repeat match goal with H : context [ln (_ * _)] |- _ => rewrite ln_mult in H by (try apply pow_lt; nra) "
    "| |- context [ln (_ * _)] => rewrite ln_mult by (try apply pow_lt; nra) "
    "| H : context [ln (_ / _)] |- _ => rewrite ln_div in H by (try apply pow_lt; nra) "
    "| |- context [ln (_ / _)] => rewrite ln_div by (try apply pow_lt; nra) "
    "| H : context [ln (_ ^ _)] |- _ => rewrite ln_pow in H by nra "
    "| |- context [ln (_ ^ _)] => rewrite ln_pow by nra end; simpl in *"
)
"""Turn logarithms of products, quotients and powers into sums (positivity side goals by nra)."""


EXP_LOG = (
    "unfold Rpower in *; repeat match goal with "
    "| H : exp _ = exp _ |- _ => apply exp_inv in H "
    "| H : exp _ = _ |- _ => apply (f_equal ln) in H; rewrite !ln_exp in H "
    "| H : _ = exp _ |- _ => apply (f_equal ln) in H; rewrite !ln_exp in H end"
)
"""Exponential equations made linear: ``Rpower a e`` is ``exp (e * ln a)``; an equation between
exponentials compares exponents (``exp_inv``), one with another side takes ``ln`` of it."""


def ln_powers(g: GoalInfo, limit: int = 3) -> list[tuple[int, int, int]]:
    """``(N, k, p)`` for each ``ln N`` in sight with ``N = p ^ k``, ``k >= 2``, ``p`` smallest:
    ``ln 243 = 5 * ln 3`` puts logarithms of one base on a common atom."""
    out = []
    for s in dict.fromkeys(re.findall(r"\bln\s+(\d+)\b", g.all_text)):
        n = int(s)
        # the largest exponent with an exact root has the smallest base
        for k in range(n.bit_length(), 1, -1):
            p = int_root(n, k)
            if p >= 2 and p**k == n:
                out.append((n, k, p))
                break
    return out[:limit]


def ln_products(g: GoalInfo, limit: int = 4) -> list[tuple[int, list[tuple[int, int]]]]:
    """``(N, [(p, k), ...])`` for each ``ln N`` with ``N`` a product of at least two distinct small
    primes: ``ln 98 = 1 * ln 2 + 2 * ln 7`` leaves every logarithm a combination of ``ln p``."""
    out = []
    for s in dict.fromkeys(re.findall(r"\bln\s+(\d+)\b", g.all_text)):
        n, fs = int(s), []
        if not 2 <= n <= 10**9:
            continue  # ln 0 would divide by every p forever
        for p in range(2, 100):
            k = 0
            while n % p == 0:
                n, k = n // p, k + 1
            if k:
                fs.append((p, k))
        if n == 1 and len(fs) >= 2:
            out.append((int(s), fs))
    return out[:limit]


TRIG_VALUES = (
    "rewrite ?sin_0, ?cos_0, ?sin_PI, ?cos_PI, ?sin_PI2, ?cos_PI2, ?sin_PI3, ?cos_PI3, ?sin_PI6, ?cos_PI6, "
    "?sin_PI4, ?cos_PI4, ?tan_PI4, ?tan_PI3 in *"
)
"""Sine, cosine and tangent at 0, pi, pi/2, pi/3, pi/4, pi/6 (the standard library's table)."""


TRIG_EXPAND = "rewrite ?sin_plus, ?cos_plus, ?sin_minus, ?cos_minus, ?sin_2a, ?cos_2a, ?sin_neg, ?cos_neg in *"
"""Sums, differences, doubles and opposites of angles expanded into sines and cosines."""


def up_values(g: GoalInfo, limit: int = 3) -> list[tuple[str, int, str]]:
    """``(A, z, closer)`` for each ``up A`` with a closed argument: a rational numeral
    expression or ``sqrt N``. ``z = floor(A) + 1`` is computed here; ``tech_up`` turns
    ``z = up A`` into ``A < z <= A + 1``, which ``closer`` proves."""
    out: list[tuple[str, int, str]] = []
    for arg in args_of(g, "up"):
        value = eval_numeral(arg)
        if value is not None:
            out.append((arg, math.floor(value) + 1, "lra"))
            continue
        s = re.fullmatch(r"\(?\s*sqrt\s+(\d+)\s*\)?", arg)
        if s:
            n = int(s.group(1))
            out.append((arg, math.isqrt(n) + 1, f"pose proof (sqrt_pos {n}); pose proof (sqrt_sqrt {n} ltac:(lra)); nra"))
    return out[:limit]


def rpower_roots(g: GoalInfo, limit: int = 3) -> list[tuple[str, str, int, int, int, int]]:
    """``(A, E, value, m, p, q)`` for each ``Rpower A E`` with closed ``A = m ^ q`` (``m`` a positive
    integer) and ``E = p / q``: the power is ``m ^ p`` (``Rpower 343 (2/3) = 49``)."""
    text = " ".join(g.all_text.split())
    out: list[tuple[str, str, int, int, int, int]] = []
    for mt in re.finditer(r"\bRpower\s+", text):
        a = leading_arg(text[mt.end() :])
        rest = text[mt.end() + len(a or "") :].lstrip() if a else ""
        e = leading_arg(rest) if rest else None
        if not a or not e:
            continue
        av = eval_numeral(a)
        ev = eval_numeral(re.sub(r"^\(\s*/", "(1 /", e))
        if av is None or ev is None or av <= 0 or av.denominator != 1 or ev.denominator == 1 or ev <= 0:
            continue
        p, q = ev.numerator, ev.denominator
        if p > 40 or q > 64:
            continue  # m ** p of a huge exponent would not finish
        m = int_root(int(av), q)
        if m < 2 or m**q != av or m**p > 10**12 or (a, e) in [o[:2] for o in out]:
            continue
        out.append((a, e, m**p, m, p, q))
    return out[:limit]


@family("trig-nra", DOMAIN, "close")
def trig_nra(f: Focus) -> list[Candidate]:
    """A real goal with ``sin``/``cos``: ``nra`` given ``sin a ^ 2 + cos a ^ 2 = 1`` for each
    argument in sight (the sines and cosines then behave as bounded unknowns)."""
    if not (f.d.real and re.search(r"\b(?:sin|cos)\b", f.g.all_text)):
        return []
    hints = "; ".join(f"pose proof (sin2_cos2 {a})" for a in args_of(f.g, "sin|cos")[:3])
    return [close(hints + "; unfold Rsqr in *; nra", 2, tag="trig-nra")] if hints else []


@family("ln-expand", DOMAIN, "step")
def ln_expand(f: Focus) -> list[Candidate]:
    """``ln (a * b)``, ``ln (a / b)``, ``ln (a ^ n)`` in sight: turned into sums and multiples of
    logarithms (positivity side goals by ``nra``)."""
    return [step(LN_EXPAND, 0.4, tag="ln-expand")] if f.d.real and re.search(r"\bln\s*\(", f.g.all_text) else []


@family("exp-log", DOMAIN, "step")
def exp_log(f: Focus) -> list[Candidate]:
    """A hypothesis with ``exp`` or ``Rpower`` (``Rpower 2 x = 8``): exponents compared or ``ln``
    taken of both sides, a linear equation in the exponent."""
    if f.d.real and re.search(r"\bRpower\b|\bexp\b", " ".join(h.type for h in f.g.hyps if "forall" not in h.type)):
        return [step(EXP_LOG, 0.4, tag="exp-log")]
    return []


@family("ln-factor", DOMAIN, "step")
def ln_factor(f: Focus) -> list[Candidate]:
    """``ln N`` of numerals: ``N = p ^ k`` gives ``ln N = k * ln p``, a product of primes the sum
    of their logarithms, so logarithms of one base become one atom for ``lra``."""
    g, out = f.g, []
    powers = [
        f"assert (Hln{n}_ : ln {n} = {k} * ln {p}) by (replace {n} with ({p} ^ {k}) by lra; rewrite ln_pow by lra; simpl; lra); "
        f"rewrite Hln{n}_ in *"
        for n, k, p in (ln_powers(g) if f.d.real else [])
    ]
    if powers:
        out.append(step("; ".join(powers), 0.3, tag="ln-factor"))
    products = [
        f"assert (Hln{n}_ : ln {n} = {' + '.join(f'{k} * ln {p}' for p, k in fs)}) by "
        f"(replace {n} with ({' * '.join(f'{p} ^ {k}' for p, k in fs)}) by lra; "
        f"rewrite !ln_mult by (repeat apply Rmult_lt_0_compat; try apply pow_lt; lra); rewrite !ln_pow by lra; simpl; lra); "
        f"rewrite Hln{n}_ in *"
        for n, fs in (ln_products(g) if f.d.real else [])
    ]
    if products:
        out.append(step("; ".join(products), 0.3, tag="ln-factor"))
    return out


@family("ln-pos", DOMAIN, "step")
def ln_pos(f: Focus) -> list[Candidate]:
    """``ln k`` of numerals ``k > 1`` without a sign hypothesis: ``0 < ln k`` from ``ln 1 = 0`` and
    monotonicity (``ln_gt_0`` is Coquelicot's, not the standard library's)."""
    g = f.g
    ks = sorted({k for k in re.findall(r"\bln\s+(\d+)\b", g.all_text) if int(k) > 1}, key=int)[:4] if f.d.real else []
    if not ks or any(h.type.startswith("0 < ln") for h in g.hyps):
        return []
    return [step("; ".join(f"assert (0 < ln {k}) by (rewrite <- ln_1; apply ln_increasing; lra)" for k in ks), 0.3, tag="ln-pos")]


@family("trig-values", DOMAIN, "step")
def trig_values(f: Focus) -> list[Candidate]:
    """Sine/cosine/tangent at ``0`` or at multiples of ``PI`` in sight: the standard library's
    values at 0, pi, pi/2, pi/3, pi/4, pi/6 rewritten in."""
    t = f.g.all_text
    if f.d.real and re.search(r"\b(?:sin|cos|tan)\b", t) and ("PI" in t or re.search(r"\b(?:sin|cos)\s+0\b", t)):
        return [step(TRIG_VALUES, 0.3, tag="trig-values")]
    return []


@family("trig-expand", DOMAIN, "step")
def trig_expand(f: Focus) -> list[Candidate]:
    """``sin``/``cos`` of a sum, difference or double (``cos (2 * x)``): expanded into sines and
    cosines of the parts."""
    t = f.g.all_text
    if not (f.d.real and re.search(r"\b(?:sin|cos|tan)\b", t)):
        return []
    if re.search(r"\b(?:sin|cos)\s*\((?:[^()]|\([^()]*\))*[-+]|\b(?:sin|cos)\s*\(\s*2\s*\*", t):
        return [step(TRIG_EXPAND, 0.5, tag="trig-expand")]
    return []


@family("up-eval", DOMAIN, "step")
def up_eval(f: Focus) -> list[Candidate]:
    """``up A`` of a closed ``A`` (a rational numeral or ``sqrt N``): replaced by its value
    ``floor A + 1``, proved by ``tech_up``."""
    parts = [f"replace (up {a}) with ({z})%Z by (apply tech_up; first [lra | {c}])" for a, z, c in (up_values(f.g) if f.d.real else [])]
    return [step("; ".join(parts), 0.3, tag="up-eval")] if parts else []


@family("unfold-int-part", DOMAIN, "step")
def unfold_int_part(f: Focus) -> list[Candidate]:
    """``Int_part`` in a real goal: unfolded to ``up _ - 1`` for ``up-eval``."""
    return [step("unfold Int_part in *", 0.4, tag="unfold")] if f.d.real and re.search(r"\bInt_part\b", f.g.all_text) else []


@family("rpower-root", DOMAIN, "step")
def rpower_root(f: Focus) -> list[Candidate]:
    """``Rpower A (p / q)`` with ``A = m ^ q`` (``Rpower 64 (2 / 3)``): replaced by ``m ^ p``."""
    parts = [
        f"replace (Rpower {a} {e}) with ({v}) by (replace {a} with (Rpower {m} (INR {q})) by (rewrite Rpower_pow by lra; simpl; lra); "
        f"rewrite Rpower_mult; replace (INR {q} * {e}) with (INR {p}) by (simpl; field); rewrite Rpower_pow by lra; simpl; lra)"
        for a, e, v, m, p, q in (rpower_roots(f.g) if f.d.real else [])
    ]
    return [step("; ".join(parts), 0.3, tag="rpower-root")] if parts else []


@family("rpower-eval", DOMAIN, "step")
def rpower_eval(f: Focus) -> list[Candidate]:
    """``Rpower a k`` with a numeral base and a natural exponent: rewritten as ``a ^ k``."""
    if not f.d.real:
        return []
    pw = list(dict.fromkeys(re.findall(r"\bRpower\s+(\d+|\(\d+\s*/\s*\d+\))\s+(\d+)\b", f.g.all_text)))[:3]
    if not pw:
        return []
    tac = "; ".join(
        f"assert (Hp{i} : Rpower {a} {k} = {a} ^ {k}) by (rewrite <- Rpower_pow by lra; f_equal; simpl; lra); rewrite ?Hp{i} in *"
        for i, (a, k) in enumerate(pw)
    )
    return [step(tac, 0.3, tag="rpower-eval")]


@family("pi-bounds", DOMAIN, "step")
def pi_bounds(f: Focus) -> list[Candidate]:
    """``PI`` in a real goal with no bound on it yet: ``PI / 2 < 3 / 2`` and ``PI / 4 <= 1`` style
    bounds from the library (``PI2_3_2``, ``PI_4``)."""
    g = f.g
    if f.d.real and re.search(r"\bPI\b", g.all_text) and not any("PI / 2" in h.type and "<" in h.type for h in g.hyps):
        return [step("pose proof PI2_3_2; pose proof PI_4", 0.3, tag="pi-bounds")]
    return []
