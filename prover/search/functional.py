"""Functional equations: hypotheses ``forall x, ...`` about an unknown function, used at the
points the goal needs.

What is covered: a real functional equation instantiated at 0, 1, -1, 2 and at the points the
conclusion evaluates with their reciprocals and opposites (``f x + 2 f (1 / x) = x`` solved as
a linear system for ``f 2``); shifted or scaled arguments ``f (x + c)``, ``f (k * x)``
instantiated so their argument is a point in sight; an inverse law ``f (g x) = x`` applied to
``f c = d``. What is not covered: equations over ``nat``/``Z`` other than inverse laws, and
proofs that need the function's general form (injectivity, monotonicity arguments).
"""

from __future__ import annotations

import re

from .family import Focus, family, step
from .goal import Candidate, GoalInfo, defined_function, eval_numeral

DOMAIN = "functional equations"


def goal_points(g: GoalInfo, limit: int = 6) -> list[str]:
    """Where the conclusion evaluates functions (``f 2``, ``f (1 / 3)``), and the reciprocals
    and opposites of those points: the instances a functional equation ``forall x, f x + 2 *
    f (1 / x) = ...`` needs to be solved as a linear system for ``f 2``."""
    out: list[str] = []
    for m in re.finditer(r"\b[A-Za-z_]\w*\s+(\d+|\(\s*-?\d+\s*/\s*\d+\s*\)|\(\s*-\s*\d+\s*\))(?!\w)", g.concl):
        t = " ".join(m.group(1).strip("()").split())
        v = eval_numeral(t.replace(" ", ""))
        if v is None or t in ("0", "1", "-1", "2"):
            continue
        for cand in (t, f"/ ({t})" if v != 0 else None, f"- ({t})"):
            if cand and cand not in out:
                out.append(cand)
    return out[:limit]


_SHIFTED = re.compile(
    r"^forall\s+(?P<x>\w+)\s*:\s*R\s*,\s*(?P<f>[A-Za-z_]\w*)\s*\(\s*(?:"
    r"(?P=x)\s*(?P<op>[+-])\s*(?P<c>\d+(?:\s*/\s*\d+)?)|(?P<k>\d+)\s*\*\s*(?P=x))\s*\)\s*=\s*(?P<rhs>.+)$"
)


def shifted_instances(g: GoalInfo, limit: int = 2) -> list[str]:
    """For ``forall x : R, f (x + c) = ...`` (or ``x - c``, ``k * x``): instances at the points
    where ``f``'s argument is 0, 1 or a numeral ``f`` is applied to elsewhere, with the argument
    rewritten to that numeral (``f (1 - 3 + 3)`` -> ``f 1``) so the definitional hypotheses apply."""
    out = []
    for h in g.hyps:
        m = _SHIFTED.match(" ".join(h.type.split()))
        if not m:
            continue
        f, name = m.group("f"), h.names[0]
        others = g.all_text.replace(h.type, "")
        targets = ["0", "1"] + [t for t in re.findall(rf"\b{re.escape(f)}\s+(\d+)\b", others) if t not in ("0", "1")]
        steps = []
        for i, t in enumerate(dict.fromkeys(targets)):
            if m.group("k"):
                x0, arg = f"({t} / {m.group('k')})", f"({m.group('k')} * ({t} / {m.group('k')}))"
            else:
                inv = "-" if m.group("op") == "+" else "+"
                x0 = f"({t} {inv} ({m.group('c')}))"
                arg = f"({t} {inv} ({m.group('c')}) {m.group('op')} {m.group('c')})"
            steps.append(f"pose proof ({name} {x0}) as Hs{i}; replace {arg} with {t} in Hs{i} by lra")
        out.append("; ".join(steps[:4]))
    return out[:limit]


def inverse_points(g: GoalInfo, limit: int = 2) -> list[str]:
    """The goal ``F c = d`` with ``forall x, F (G x) = x`` known: ``c`` is ``G d`` (by a stated
    value or ``G``'s definition), and the inverse law closes it."""
    m = re.fullmatch(r"([A-Za-z_]\w*)\s+(\w+|\([^()]*\))\s*=\s*([^=]+)", g.concl.strip())
    if not m:
        return []
    f, c, value = m.group(1), m.group(2), m.group(3).strip()
    out: list[str] = []
    for h in g.hyps:
        law = re.fullmatch(
            rf"forall\s+\(?(\w+)\s*(?::\s*\w+)?\)?\s*,\s*{re.escape(f)}\s+\(([A-Za-z_]\w*)\s+\1\)\s*=\s*\1", h.type.strip()
        )
        if not law or len(out) >= limit:
            continue
        inner = law.group(2)
        defs = [d.names[0] for d in g.hyps if defined_function(d.type) == inner and d is not h]
        proofs = ["assumption", "symmetry; assumption"] + [f"rewrite {n}; ring" for n in defs] + [f"rewrite {n}; field" for n in defs]
        out.append(f"replace {c} with ({inner} ({value})) by (first [{' | '.join(proofs)}]); apply {h.names[0]}")
    return out


@family("instantiate", DOMAIN, "step")
def instantiate(f: Focus) -> list[Candidate]:
    """A hypothesis ``forall x : R, ...`` that is not a plain definition (its function recurs,
    ``f x + 2 * f (- x) = x``): instances at 0, 1, -1, 2, and at the goal's points with their
    reciprocals and opposites (premises ``x <> 0`` discharged on the spot)."""
    g, out = f.g, []
    for h in g.hyps:
        m = re.match(r"^forall\s+(\w+)\s*:\s*R\s*,", h.type)
        fn = defined_function(h.type) if m else None
        if not (m and (not fn or len(re.findall(rf"\b{re.escape(fn)}\b", h.type)) > 1)):
            continue
        n = h.names[0]
        out.append(step("; ".join(f"pose proof ({n} ({k}))" for k in ("0", "1", "-1", "2")), 0.8, tag="instantiate"))
        points = goal_points(g)
        if points:
            # premises (x <> 0 -> ...) discharged on the spot; - - t and / / t written back as t
            premises = len(re.findall(r"->", h.type.split("=")[0]))
            side = " ltac:(solve [lra | apply Rinv_neq_0_compat; lra])" * premises
            tac = "; ".join(f"pose proof ({n} ({k}){side})" for k in points) + "; rewrite ?Ropp_involutive, ?Rinv_inv in *"
            out.append(step(tac, 0.6, tag="instantiate"))
    return out


@family("shift-eval", DOMAIN, "step")
def shift_eval(f: Focus) -> list[Candidate]:
    """``forall x : R, f (x + c) = ...`` (or ``x - c``, ``k * x``): instances where the argument
    is 0, 1 or a numeral ``f`` is applied to elsewhere, the argument written as that numeral."""
    return [step(t, 0.6, tag="shift-eval") for t in shifted_instances(f.g)] if f.d.real else []


@family("inverse", DOMAIN, "step")
def inverse(f: Focus) -> list[Candidate]:
    """``F c = d`` with ``forall x, F (G x) = x`` known: ``c`` is ``G d`` (by a stated value or
    ``G``'s definition), and the inverse law closes it."""
    if not (f.d.real or f.d.natural or f.d.integer):
        return []
    return [step(t, 0.3, tag="inverse") for t in inverse_points(f.g)]
