"""Real inequalities with reciprocals and square roots.

What is covered:
- *cleared denominators*: ``E >= F`` (``<=``, ``>``, ``<``) with divisions, written as
  ``E - F >= 0``, brought to one fraction ``N / D`` by ``field_simplify`` (its side conditions
  ``x <> 0`` closed from the positivity hypotheses), then ``N * / D`` decided by ``nra`` with
  ``/ D > 0`` proved and the squares of the variables' differences as hints (AM-GM shapes),
  or by ``psatz`` (a sum-of-squares certificate: a fraction compared with a constant), or with
  the signs of ``N`` and ``D`` proved apart (cubic numerators, product denominators);
- *radicals by squaring*: ``sqrt A <= B`` as ``A <= B * B`` once ``0 <= B`` (``sqrt_le_1_alt``
  after writing ``B`` as ``sqrt (B * B)``), and ``B < sqrt A`` (``<=``) split on the sign of ``B``:
  negative, ``sqrt``'s positivity ends it; otherwise both sides are squared (then ``nra`` with
  square hints, or ``psatz``, which finds a square such as ``(b - 4) ^ 2`` itself).

What is not covered: denominators whose sign is not derivable by ``nra`` from the hypotheses,
nested radicals.
"""

from __future__ import annotations

import re

from .family import Focus, family
from .goal import Candidate, GoalInfo

DOMAIN = "real inequalities"

_REL = re.compile(r"^(?P<l>.+?)\s*(?P<op><=|>=|<|>)\s*(?P<r>.+)$")
_MINUS = {">=": "Rminus_ge", "<=": "Rminus_le", ">": "Rminus_gt", "<": "Rminus_lt"}
_POSITIVE = {
    ">=": ("apply Rminus_ge", False),
    "<=": ("apply Rge_le, Rminus_ge", False),
    ">": ("apply Rminus_gt", True),
    "<": ("apply Rgt_lt, Rminus_gt", True),
}
"""How ``E op F`` becomes ``X >= 0`` / ``X > 0`` (``X`` is ``E - F`` or ``F - E``), and whether strict."""
_SIDE = "repeat split; intro; subst; solve [lra | nra]"
"""``field_simplify``'s side conditions ``D <> 0``: linear, or a sum of squares plus a constant (``x ^ 2 + 1``)."""


def _relation(concl: str):
    """(left, op, right) of a top-level comparison (the first comparison operator outside parentheses)."""
    depth = 0
    for i, ch in enumerate(concl):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and ch in "<>" and concl[i : i + 2] not in ("<>",) and concl[i - 1 : i + 1] != "<-":
            op = concl[i : i + 2] if concl[i + 1 : i + 2] == "=" else ch
            if concl[i - 1 : i] == "-" or concl[i + 1 : i + 2] == ">":
                continue
            return concl[:i].strip(), op, concl[i + len(op) :].strip()
    return None


def _square_hints(g: GoalInfo, limit: int = 3, unit: bool = False) -> str:
    """``nra`` hints: squares of the real variables' pairwise differences (AM-GM), of the
    variables, and with ``unit`` of ``v - 1`` (``sqrt a <= (a + 1) / 2`` squared)."""
    vs = g.vars_of("R")[:limit]
    pairs = [f"pose proof (pow2_ge_0 ({a} - {b}))" for i, a in enumerate(vs) for b in vs[i + 1 :]]
    ones = [f"pose proof (pow2_ge_0 ({v} - 1))" for v in vs] if unit else []
    return "; ".join(pairs + ones + [f"pose proof (pow2_ge_0 {v})" for v in vs])


@family("clear-denominators", DOMAIN, "close")
def cleared_denominators(f: Focus) -> list[Candidate]:
    """Goal: a comparison with divisions over ``R`` (``p / q + q / p >= 2`` for positive ``p``, ``q``;
    ``1 / t <= 1`` for ``t >= 1``). Why: ``nra`` does not reason through ``/``; one fraction with a
    denominator of known sign is a product ``N * / D`` it can bound. At the root and one step below."""
    g, d, depth = f.g, f.d, f.depth
    if not d.real or depth > 1 or "/" not in g.concl:
        return []
    rel = _relation(g.concl)
    if rel is None:
        return []
    lemma = _MINUS[rel[1]]
    out = []
    hints = _square_hints(g)
    # second variant: psatz finds the square itself (`t / (t * t + 4) <= 1 / 4` is `(t - 2) ^ 2 >= 0`,
    # a square of no difference of variables); degree 3 for the product `N * / D`
    # (the later variants get 2 s: they are extra candidates on every division goal)
    for decide, seconds in ((f"{hints + '; ' if hints else ''}nra", 3), ("psatz R 3", 2)):
        main = (
            "match goal with |- context [?N / ?D] => assert (0 < / D) by (apply Rinv_0_lt_compat; nra) end; "
            f"unfold Rdiv; {decide}"
        )
        tac = f"apply {lemma}; field_simplify; [{main} | {_SIDE} ..]"
        out.append(Candidate(tactic=tac, kind="close", timeout=seconds, tag="clear-denominators"))
    # third variant: `N / D >= 0` (or `> 0`) as the signs of `N` and `D` apart, so that nra meets
    # degree-3 numerators (`(a + b + c) * (1 / a + 1 / b + 1 / c) >= 9`: `c * (a - b) ^ 2 + ...`)
    # and the positivity of a product denominator (`a * b * c`) factor by factor
    to_positive, strict = _POSITIVE[rel[1]]
    pos = "solve [nra | repeat apply Rmult_lt_0_compat; nra]"
    num = f"{hints + '; ' if hints else ''}nra"
    if strict:
        split = f"unfold Rgt, Rdiv; apply Rmult_lt_0_compat; [{num} | apply Rinv_0_lt_compat; {pos}]"
    else:
        split = f"unfold Rdiv; apply Rle_ge, Rmult_le_pos; [{num} | apply Rlt_le, Rinv_0_lt_compat; {pos}]"
    tac = f"{to_positive}; field_simplify; [{split} | {_SIDE} ..]"
    out.append(Candidate(tactic=tac, kind="close", timeout=2, tag="clear-denominators"))
    return out


@family("sqrt-square", DOMAIN, "close")
def radical_squaring(f: Focus) -> list[Candidate]:
    """Goal: ``sqrt A <= B`` or ``B < sqrt A`` / ``B <= sqrt A`` (``sqrt a <= (a + 1) / 2``,
    ``y < sqrt (y ^ 2 + 4)``). Why: ``sqrt`` is monotone, so comparing squares decides it once
    the side's sign is known; a negative ``B`` is below every root. At the root and one step below."""
    g, d, depth = f.g, f.d, f.depth
    if not d.real or depth > 1 or "sqrt" not in g.concl:
        return []
    rel = _relation(g.concl)
    if rel is None:
        return []
    left, op, right = rel
    if op in (">", ">="):
        left, right, op = right, left, {">": "<", ">=": "<="}[op]
    out = []
    hints = _square_hints(g, unit=True)
    # the squared comparison is decided by nra with the squares of the variables (and of v - 1) as
    # hints, or by psatz, which finds the square itself (`b <= ((b + 4) / 4)²` is `(b - 4)² >= 0`;
    # psatz needs the divisions by constants unfolded); the second variant gets 2 s
    deciders = ((f"{hints + '; ' if hints else ''}nra", 3), ("unfold Rdiv; psatz R 2", 2))
    if re.fullmatch(r"sqrt\s*(\(.*\)|\S+)", left) and "sqrt" not in right and op in ("<=", "<"):
        mono = "sqrt_le_1_alt" if op == "<=" else "sqrt_lt_1_alt"
        arg = "" if op == "<=" else "split; [solve [nra | apply sqrt_pos] | ]; "
        for decide, seconds in deciders:
            out.append(
                Candidate(
                    tactic=f"rewrite <- (sqrt_Rsqr ({right})) by nra; apply {mono}; {arg}unfold Rsqr; {decide}",
                    kind="close",
                    timeout=seconds,
                    tag="sqrt-square",
                )
            )
    m = re.fullmatch(r"sqrt\s*(\(.*\)|\S+)", right)
    if m and "sqrt" not in left and op in ("<", "<="):
        a = m.group(1)
        mono = "sqrt_lt_1_alt" if op == "<" else "sqrt_le_1_alt"
        for decide, seconds in deciders:
            tail = f"split; [apply Rle_0_sqr | unfold Rsqr; {decide}]" if op == "<" else f"unfold Rsqr; {decide}"
            out.append(
                Candidate(
                    tactic=(
                        f"destruct (Rlt_or_le ({left}) 0) as [Hn_ | Hn_]; [pose proof (sqrt_pos {a}); lra | "
                        f"rewrite <- (sqrt_Rsqr ({left})) at 1 by lra; apply {mono}; {tail}]"
                    ),
                    kind="close",
                    timeout=seconds,
                    tag="sqrt-square",
                )
            )
    return out
