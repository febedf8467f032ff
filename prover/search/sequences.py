"""Sequences and recurrences: sequences given by a recurrence, arithmetic sequences in closed
form, and finite sums ``sum_f_R0``.

What is covered: a recurrence ``forall n, u (n + k) = ...`` unrolled up to the numeral index the
goal asks about; an arithmetic sequence (constant difference, or ``u (n + 2) - u (n + 1) = u (n
+ 1) - u n``) proved to be ``u n = u 0 + n d`` and instantiated at every index in sight (recorded
as a ``ClosedForm`` fact, so it is done once per path); a sum up to ``n - 1`` shifted to ``n'``,
and induction on a sum's bound with the last term split off (``tech5``).
What is not covered: nonlinear recurrences in closed form, sums other than ``sum_f_R0``.
"""

from __future__ import annotations

import re

from .family import Focus, family, step
from .goal import Candidate, ClosedForm, GoalInfo, InductionHypotheses, leading_arg, positive_nats, stated

DOMAIN = "sequences"


_RECURRENCE = re.compile(
    r"^forall\s+(?P<n>\w+)\s*(?::\s*nat\s*)?,\s*(?P<u>[A-Za-z_]\w*)\s*\(\s*(?:(?P=n)\s*\+\s*(?P<k>\d+)|(?P<s>(?:S\s*\(?\s*)+)(?P=n)\s*\)*)\s*\)(?:%nat)?\s*(?:[-+][^=]*)?="
)


def unrolled_recurrences(g: GoalInfo, limit: int = 2, top: int = 30) -> list[str]:
    """A recurrence ``forall n, u (n + k) = ...`` and a goal about ``u N`` (``N`` a numeral):
    the instances at ``n = 0 .. N - k``, arguments computed, so that the values follow from the
    initial ones by linear arithmetic."""
    out = []
    for h in g.hyps:
        m = _RECURRENCE.match(" ".join(h.type.split()))
        if not m:
            continue
        u = m.group("u")
        k = int(m.group("k")) if m.group("k") else m.group("s").count("S")
        targets = [int(x) for x in re.findall(rf"\b{re.escape(u)}\s*\(?\s*(\d+)\s*(?:%nat)?\s*\)?", stated(g))]
        if not targets or not 0 <= max(targets) - k <= top:
            continue
        name = h.names[0]
        out.append("; ".join(f"pose proof ({name} {i}%nat) as Hu{i}_" for i in range(max(targets) - k + 1)) + "; simpl in *")
    return out[:limit]


_INDEX = r"\s*\(?\s*\d+\s*(?:%nat)?\s*\)?"
"""A numeral index of a sequence, ``u 3``, ``u (3%nat)``."""


def arithmetic_closed_forms(g: GoalInfo) -> list[tuple[str, str]]:
    """An arithmetic sequence (``u (n + 2) - u (n + 1) = u (n + 1) - u n``, or ``u (n + 1) = u n + c``)
    in closed form ``u n = u 0 + INR n * d``, proved by two inductions and instantiated at every
    index in sight: ``u 1500`` or ``u n`` is then one linear equation, not 1500 unrolled ones.
    Returns at most one ``(tactic, sequence name)``."""
    for h in g.hyps:
        typ = " ".join(h.type.replace("%nat", "").split())
        m = _RECURRENCE.match(typ)
        if not m:
            continue
        n, u = m.group("n"), m.group("u")
        k = int(m.group("k")) if m.group("k") else m.group("s").count("S")
        body = typ.split(",", 1)[1]
        left, _, right = body.partition(" = ")
        l_terms, r_terms = left.split(" - "), right.split(" - ")
        proof = f"intro {n}; pose proof ({h.names[0]} {n}) as Hh_; rewrite ?(Nat.add_comm {n}) in Hh_; simpl in Hh_; lra"
        second = k == 2 or (k == 1 and re.search(rf"\b{re.escape(u)} \((?:S \(S {n}\)|{n} \+ 2)\)", right))
        common = len(l_terms) == 2 and len(r_terms) == 2
        common = common and (l_terms[1].strip() == r_terms[0].strip() or l_terms[0].strip() == r_terms[1].strip())
        if second and common:
            diff = f"{u} 1%nat - {u} 0%nat"
            proof = (
                f"induction {n} as [|{n} IH]; [ring | pose proof ({h.names[0]} {n}) as Hh_; "
                f"rewrite ?(Nat.add_comm {n}) in Hh_; simpl in Hh_; lra]"
            )
        elif k == 1 and (c := re.fullmatch(rf"{re.escape(u)} \(?{n}\)? \+ ([^{n}]*)", right.strip())) and u not in c.group(1):
            diff = c.group(1).strip()
        else:
            continue
        points = list(dict.fromkeys(re.findall(rf"\b{re.escape(u)}\s*\(?\s*(\d+|[A-Za-z_]\w*)\s*(?:%nat)?\s*\)?", stated(g))))[:8]
        if not points:
            continue
        tactic = (
            f"assert (Hd_ : forall {n}, {u} (S {n}) - {u} {n} = {diff}) by ({proof}); "
            f"assert (Hc_ : forall {n}, {u} {n} = {u} 0%nat + INR {n} * ({diff})) by "
            f"(induction {n} as [|{n} IH]; [simpl; ring | rewrite S_INR; pose proof (Hd_ {n}); lra]); "
            + "; ".join(f"pose proof (Hc_ {p}%nat) as Hk{i}_" for i, p in enumerate(points))
            + "; rewrite ?INR_IZR_INZ in *; simpl Z.of_nat in *"
            # the stated values substituted, so that `INR n * (u 1 - u 0)` becomes linear
            + "".join(f"; rewrite ?{t.names[0]} in *" for t in g.hyps if re.match(rf"{re.escape(u)}{_INDEX}\s*=", t.type))
        )
        return [(tactic, u)]
    return []


def sum_bounds(text: str) -> list[str]:
    """The upper bounds of the ``sum_f_R0 f N`` in ``text``: a word, ``(n - 1)`` or ``(pred n)``."""
    text = " ".join(text.split())
    out = []
    for m in re.finditer(r"\bsum_f_R0\s+", text):
        f = leading_arg(text[m.end() :])
        rest = text[m.end() + len(f) :].lstrip() if f else ""
        b = re.match(r"[A-Za-z_]\w*\b|\(\s*(?:[A-Za-z_]\w*\s*-\s*1|pred\s+[A-Za-z_]\w*)\s*\)(?:%nat)?", rest)
        if b:
            out.append(b.group(0))
    return out


@family("unroll", DOMAIN, "step")
def unroll(f: Focus) -> list[Candidate]:
    """A recurrence ``forall n, u (n + k) = ...`` and a goal about ``u N`` (``N`` a numeral, at
    most 30 steps away): the instances at ``n = 0 .. N - k``, so the values follow from the
    initial ones by linear arithmetic."""
    return [step(t, 0.4, tag="unroll") for t in unrolled_recurrences(f.g)]


@family("arith-seq", DOMAIN, "step")
def arith_seq(f: Focus) -> list[Candidate]:
    """A real arithmetic sequence (constant difference) and indices in sight (``u 1500``):
    the closed form ``u n = u 0 + INR n * d`` by two inductions, instantiated at every index.
    Once per path (a ``ClosedForm`` fact)."""
    if not f.d.real or f.facts_of(ClosedForm):
        return []
    # unary indices (u 1500) cost ~1 s to cast
    return [step(t, 0.4, timeout=3.0, tag="arith-seq", facts=(ClosedForm(sequence=u),)) for t, u in arithmetic_closed_forms(f.g)]


@family("sum-index", DOMAIN, "step")
def sum_index(f: Focus) -> list[Candidate]:
    """``sum_f_R0 F N`` in the conclusion with ``N`` a ``nat`` variable: for a bound ``n - 1`` (or
    ``pred n``) with ``n >= 1``, ``n`` written as ``S n'``; for a bound ``n``, induction on ``n``
    with the last term split off (``tech5``) and the induction hypothesis used (recorded as an
    ``InductionHypotheses`` fact)."""
    g, out = f.g, []
    bounds = sum_bounds(f.concl)
    for v in g.vars_of("nat")[:2]:
        shifted = [b for b in bounds if re.search(rf"\b{re.escape(v)}\b", b) and b.startswith("(")]
        if shifted and v in positive_nats(g, limit=4):
            # a sum up to n - 1 (or pred n) with n >= 1: n is S n', the bound n'
            fix = "simpl pred" if "pred" in shifted[0] else f"replace (S {v} - 1)%nat with {v} by lia"
            # the positivity hypothesis, now 1 <= S n, is dropped: induction would make it a premise of the IH
            drop = f"repeat match goal with H : (_ <= S {v})%nat |- _ => clear H | H : (_ < S {v})%nat |- _ => clear H end"
            out.append(step(f"destruct {v} as [|{v}]; [lia | {fix}; {drop}]", 0.4, tag="sum-shift"))
        if v in bounds:
            tac = (
                f"induction {v} as [|{v} IH_]; [simpl | rewrite tech5, IH_ by lia; repeat rewrite ?plus_INR, ?mult_INR, ?S_INR; "
                f"change (INR 0) with 0; pose proof (pos_INR {v})]"
            )
            out.append(step(tac, 0.6, tag="sum-induction", facts=(InductionHypotheses(names=("IH_",)),)))
    return out
