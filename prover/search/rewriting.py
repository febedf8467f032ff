"""Rewriting: hypotheses that define functions or state values, local definitions, and the
simplification that lets them meet the goal.

What is covered: ``forall x, f x = E`` rewritten everywhere (with side conditions discharged
when it has premises, innermost closed arguments first for ``f (f 1)``, inside ``map f``);
definitions of the problem's header unfolded; ``simpl``; ``F A = F B`` reduced to ``A = B``;
stated values ``f 2 = 4`` rewritten into the conclusion. What is not covered: rewriting with
library lemmas (``library.py``), induction hypotheses (``induction.py``), functional
equations that must be instantiated (``functional.py``).
"""

from __future__ import annotations

import re

from .family import Focus, family, step
from .goal import FUN_DEF, Candidate, defined_function, leading_arg

DOMAIN = "rewriting"


def same_head_sides(concl: str) -> bool:
    """``F A = F B``: both sides one application of the same function to one argument."""
    text = " ".join(concl.split())
    left, sep, right = text.partition(" = ")
    if not sep or " = " in right:
        return False
    heads = []
    for side in (left, right):
        m = re.match(r"([A-Za-z_][\w.']*)\s+", side)
        if not m:
            return False
        arg = leading_arg(side[m.end() :])
        if not arg or side[m.end() :].strip() != arg:
            return False
        heads.append(m.group(1))
    return heads[0] == heads[1] and heads[0] not in ("fun", "forall", "exists")


@family("rewrite-def", DOMAIN, "step")
def rewrite_def(f: Focus) -> list[Candidate]:
    """A hypothesis ``forall x ..., f x = E`` (optionally with premises) whose ``f`` is used
    elsewhere: rewrite with it everywhere, or in the conclusion only; with premises, side goals
    by arithmetic (``rewrite-cond``); ``map f l`` gets ``map_ext``."""
    g, out = f.g, []
    for h in g.hyps:
        fn = defined_function(h.type)
        if not (fn and re.search(rf"\b{re.escape(fn)}\b", g.all_text.replace(h.type, ""))):
            continue
        n = h.names[0]
        fm = FUN_DEF.match(h.type)
        if fm and fm.group("conds"):
            side = "by first [lia | lra | auto | assumption]"
            out.append(step(f"rewrite !{n} in * {side}", 0.3, tag="rewrite-cond"))
            out.append(step(f"rewrite !{n} {side}", 0.4, tag="rewrite-cond"))
            # the innermost closed arguments first: in f (f 1) the outer side condition needs f 1's value
            pts = list(dict.fromkeys(re.findall(rf"\b{re.escape(fn)}\s+(\d+|\([^()A-Za-z]*\))", g.concl)))[:2]
            if pts and re.search(rf"\b{re.escape(fn)}\s+\(\s*{re.escape(fn)}\b", g.concl):
                out.append(step("; ".join(f"rewrite ({n} {a}) {side}" for a in pts), 0.3, tag="rewrite-cond"))
        else:
            out.append(step(f"rewrite !{n} in *", 0.3, tag="rewrite-def"))
            out.append(step(f"rewrite !{n}", 0.4, tag="rewrite-def"))
            if re.search(rf"\bmap\s+{re.escape(fn)}\b", g.concl):
                # `map f l` has `f` unapplied: rewrite the function inside the map
                out.append(step(f"rewrite (map_ext _ _ {n})", 0.3, tag="map-ext"))
    return out


@family("unfold-def", DOMAIN, "step")
def unfold_def(f: Focus) -> list[Candidate]:
    """A name the problem's header defines (``Definition``, ``Fixpoint``, ``Let``) in sight:
    unfolded everywhere, so its body meets the arithmetic."""
    return [
        step(f"unfold {name} in *", 0.4, tag="unfold-def")
        for name in f.ctx.local_defs
        if re.search(rf"\b{re.escape(name)}\b", f.g.all_text)
    ]


@family("rewrite-local", DOMAIN, "step")
def rewrite_local(f: Focus) -> list[Candidate]:
    """An equation the file itself stated earlier (``ProblemContext.equations``: ``sum (rev l) =
    sum l``) whose function is in sight: rewrite with it, left to right and right to left, so
    that the goal meets a lemma or the hypotheses (an earlier lemma of a project file, then the
    closers, ``apply`` of another one by ``library-search``)."""
    out = []
    for name in f.ctx.equations:
        out.append(step(f"rewrite {name}", 0.3, tag="rewrite-local"))
        out.append(step(f"rewrite <- {name}", 0.3, tag="rewrite-local"))
    return out


@family("simpl", DOMAIN, "step")
def simpl(f: Focus) -> list[Candidate]:
    """Any goal: ``simpl in *`` computes what reduces (dearer over ``R``, where it rarely helps)."""
    return [step("simpl in *", 1.5 if f.d.real else 0.8, tag="simpl")]


@family("f_equal", DOMAIN, "step")
def f_equal(f: Focus) -> list[Candidate]:
    """``F A = F B`` (both sides one application of one function): ``A = B`` suffices
    (``sqrt (x + 1) = sqrt (1 + x)``)."""
    return [step("f_equal", 0.5, tag="f_equal")] if same_head_sides(f.concl) else []


@family("rewrite-value", DOMAIN, "step")
def rewrite_value(f: Focus) -> list[Candidate]:
    """Hypotheses stating values of applications the conclusion evaluates (``f 2 = 4`` with
    ``f (f 2)`` in the goal): rewritten in."""
    known = [
        h.names[0]
        for h in f.g.hyps
        if (m := re.fullmatch(r"([A-Za-z_]\w*\s+(?:\w+|\([^()]*\)))\s*=\s*(-?[\d.]+|[A-Za-z_]\w*)", h.type.strip()))
        and not h.type.startswith("forall")
        and re.search(rf"(?<![\w.]){re.escape(m.group(1))}(?![\w.])", f.concl)
    ]
    return [step(f"rewrite {', '.join(known[:3])}", 0.3, tag="rewrite-value")] if known else []
