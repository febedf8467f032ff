"""Remainders known from hypotheses: ``a mod k = r`` written as ``a = k * q + r``.

What is covered: a hypothesis ``v mod k = r`` (``nat`` or ``Z``, ``k`` a numeral) makes ``v`` a
linear form ``k * q + r`` in a fresh quotient ``q``; substituted into the goal, a remainder of a
polynomial in ``v`` becomes one of a polynomial in ``q`` whose value ``nia`` finds once
the remainder of the goal is named too (``Z.div_mod_to_equations``). This complements the
remainder push of ``tactics.py`` (which rewrites ``mod`` down to the leaves) on goals that are
not a remainder equation: divisibility, inequalities, ``/``.
"""

from __future__ import annotations

import re

from .tactics import Candidate, Domain, GoalInfo, ProblemContext

_MOD_HYP = re.compile(r"^\(?\s*([A-Za-z_]\w*)\s+mod\s+(\d+)\s*\)?\s*=\s*(\d+)\s*(%nat|%Z)?$")


def known_remainders(g: GoalInfo) -> list[tuple[str, str, int, int]]:
    """``(hypothesis, variable, k, r)`` for each hypothesis ``v mod k = r`` with ``0 <= r < k``."""
    out = []
    for h in g.hyps:
        m = _MOD_HYP.match(" ".join(h.type.split()))
        if m and int(m.group(3)) < int(m.group(2)) and int(m.group(2)) >= 2:
            out.append((h.names[0], m.group(1), int(m.group(2)), int(m.group(3))))
    return out


def remainder_substitution(g: GoalInfo, d: Domain, ctx: ProblemContext, depth: int) -> list[Candidate]:
    """Goal: anything about ``v`` given ``H : v mod k = r`` (``(m * m + 5) mod 7 = 0``,
    ``7 | m * m + 5``, ``m * m mod 7 = 2``). Why: ``v = k * (v / k) + r`` (``div_mod``) with the
    quotient named turns the goal into arithmetic on a fresh ``q`` that ``nia`` decides once every
    remaining ``mod``/``/`` is named as well."""
    if depth > 1 or d.real:
        return []
    out = []
    z = d.integer and not d.natural
    for h, v, k, r in known_remainders(g)[:2]:
        if z:
            head = f"pose proof (Z.div_mod {v} {k} ltac:(lia)) as Hq_; rewrite {h} in Hq_"
            tail = "try unfold Z.divide in *; PreOmega.Z.div_mod_to_equations; nia"
        else:
            head = f"pose proof (Nat.div_mod {v} {k} ltac:(lia)) as Hq_; rewrite {h} in Hq_"
            tail = (
                "try unfold Nat.divide in *; Zify.zify; rewrite ?Znat.Nat2Z.inj_mod, ?Znat.Nat2Z.inj_div in *; Zify.zify; "
                "PreOmega.Z.div_mod_to_equations; nia"
            )
        out.append(
            Candidate(
                tactic=f"{head}; set (q_ := {v} / {k}) in *; clearbody q_; clear {h}; subst {v}; {tail}",
                kind="close",
                timeout=3,
                tag="mod-subst",
            )
        )
    return out


def modular_closers(g: GoalInfo, d: Domain, ctx: ProblemContext, depth: int) -> list[Candidate]:
    """The modular family's closers."""
    return remainder_substitution(g, d, ctx, depth)
