"""Logical structure: closers for propositional and equational reasoning, and the steps that
take a goal apart (introductions, conjunctions, disjunctions, existentials, equations to
substitute, universally quantified conjunctions).

What is covered: ``tauto``, ``congruence``; ``intros``/``intro``, ``split``, ``left``/``right``,
destructing conjunctions, existentials and disjunctions among the hypotheses, ``subst``,
witnesses for ``exists`` (small numerals, the body's numerals, a linear equation's root, an
exact quotient), splitting ``forall x, A x /\\ B x``. What is not covered: arithmetic
(``arith.py``); rewriting with equations (``rewriting.py``).
"""

from __future__ import annotations

import re

from .family import Focus, close, family, step
from .goal import NAME, Candidate, Domain, GoalInfo, eval_numeral

DOMAIN = "logic"


@family("apply-local", DOMAIN, "close")
def apply_local(f: Focus) -> list[Candidate]:
    """A goal whose head symbol is the conclusion of a lemma the file stated earlier
    (``ProblemContext.lemmas``: ``ev (sumlist l)`` after ``Lemma ev_sumlist : ev (sumlist l)``):
    apply it, its premises left to ``auto``/``eauto``/``lia``."""
    m = re.match(r"\s*\(?\s*([A-Za-z_][\w'.]*)", f.concl)
    head = m.group(1) if m else ""
    names = [n for n, h in reversed(f.ctx.lemmas) if h == head]
    return [close(f"solve [apply {n}; solve [assumption | auto | eauto | lia]]", 0.5, tag="apply-local") for n in names[:4]]


@family("tauto", DOMAIN, "close")
def tauto(f: Focus) -> list[Candidate]:
    """A root goal that may be a propositional tautology over its hypotheses (``A -> A \\/ B``)."""
    return [close("tauto", 1)] if f.root else []


@family("congruence", DOMAIN, "close")
def congruence(f: Focus) -> list[Candidate]:
    """A root goal that follows from equalities and constructor injectivity/disjointness
    (``f a = b -> a = c -> f c = b``, ``S n <> 0``)."""
    return [close("congruence", 1)] if f.root else []


@family("intros", DOMAIN, "step")
def intros(f: Focus) -> list[Candidate]:
    """``forall ...``, ``~ A`` or ``A -> B``: introduce the binders and premises."""
    c = f.concl
    return [step("intros", 0.2)] if c.startswith(("forall", "~")) or "->" in c else []


@family("intro", DOMAIN, "step")
def intro(f: Focus) -> list[Candidate]:
    """``A <> B`` or ``~ A``: one ``intro`` exposes ``False`` with the equation as a hypothesis."""
    return [step("intro", 0.3)] if re.match(r"^\(?.*<>", f.concl) or f.concl.startswith("~") else []


@family("split", DOMAIN, "step")
def split(f: Focus) -> list[Candidate]:
    """``A /\\ B`` or ``A <-> B``: one goal per part (all at once for longer conjunctions)."""
    c = f.concl
    if "/\\" not in c and "<->" not in c:
        return []
    out = [step("split", 0.5)]
    if c.count("/\\") > 1:
        out.append(step("repeat split", 0.4, tag="split"))
    return out


@family("disjunct", DOMAIN, "step")
def disjunct(f: Focus) -> list[Candidate]:
    """``A \\/ B``: commit to one side (costly: a wrong choice is a dead end)."""
    return [step("left", 1.5), step("right", 1.5)] if "\\/" in f.concl else []


@family("destruct-and", DOMAIN, "step")
def destruct_and(f: Focus) -> list[Candidate]:
    """A hypothesis ``A /\\ B`` or ``exists x, P x`` (not under ``forall``): its parts as
    hypotheses of their own, which the arithmetic closers can use."""
    if any(("/\\" in t or t.startswith("exists")) and not t.startswith("forall") for t in (h.type for h in f.g.hyps)):
        tac = "repeat match goal with H : _ /\\ _ |- _ => destruct H | H : exists _, _ |- _ => destruct H end"
        return [step(tac, 0.2, tag="destruct-and")]
    return []


@family("destruct-or", DOMAIN, "step")
def destruct_or(f: Focus) -> list[Candidate]:
    """A hypothesis ``A \\/ B``: one goal per case."""
    return [
        step(f"destruct {h.names[0]}", 0.8, tag="destruct-or")
        for h in f.g.hyps
        if "\\/" in h.type and not h.type.startswith("forall") and not h.type.startswith("exists")
    ]


@family("subst", DOMAIN, "step")
def subst(f: Focus) -> list[Candidate]:
    """A hypothesis ``x = E`` or ``E = x`` for a variable ``x``: substitute it away."""
    if any(re.match(r"^[A-Za-z_]\w*\s*=|=\s*[A-Za-z_]\w*$", h.type) for h in f.g.hyps):
        return [step("subst", 0.3)]
    return []


@family("forall-and", DOMAIN, "step")
def forall_and(f: Focus) -> list[Candidate]:
    """A hypothesis ``forall x, A x /\\ B x``: two hypotheses ``forall x, A x`` and ``forall x,
    B x`` that rewriting and ``apply`` can use on their own."""
    out = []
    for h in f.g.hyps:
        m = re.match(r"^forall\s+(\([^)]*\)(?:\s*\([^)]*\))*|[^,(]+?)\s*,\s*(.*)$", h.type)
        if m and "/\\" in m.group(2) and not re.search(r"->|\\/|<->|\bexists\b|\bforall\b", m.group(2)):
            xs = " ".join(re.findall(r"\b([A-Za-z_]\w*)\b(?=[^:]*:)", m.group(1)) or m.group(1).split())
            n = h.names[0]
            tac = f"pose proof (fun {xs} => proj1 ({n} {xs})) as {n}_l; pose proof (fun {xs} => proj2 ({n} {xs})) as {n}_r; clear {n}"
            out.append(step(tac, 0.3, tag="forall-and"))
    return out


def linear_root(name: str, body: str) -> str | None:
    """The solution of the body's first equation when it is linear in ``name`` with numeral
    coefficients (``exists x, 4 * x + 1 = 29 /\\ ...`` -> ``7``), as a Rocq numeral or fraction."""
    eq = re.split(r"/\\", body)[0].strip().strip("()")
    if eq.count("=") != 1 or re.search(r"<|>", eq):
        return None
    left, right = eq.split("=")
    v = re.escape(name)

    def at(x: int):
        def sub(s: str) -> str:
            return re.sub(rf"\b{v}\b", f"({x})", s)

        a, b = eval_numeral(sub(left).strip()), eval_numeral(sub(right).strip())
        return None if a is None or b is None else a - b

    f0, f1, f2 = at(0), at(1), at(2)
    if f0 is None or f1 is None or f2 is None or f1 == f0 or f2 - f1 != f1 - f0:
        return None
    r = -f0 / (f1 - f0)
    if r.denominator == 1:
        return str(r.numerator) if r >= 0 else f"({r.numerator})"
    return f"({r.numerator} / {r.denominator})"


def witnesses(g: GoalInfo, d: Domain, limit: int = 8) -> list[str]:
    """Values to try for ``exists x, ...``: 0, 1, 2, the numerals of the body, the variables in
    scope of the binder's type (when it is written)."""
    m = re.match(r"^exists\s+\(?\s*([A-Za-z_][\w']*)(?:\s+[A-Za-z_][\w']*)*\s*(?::\s*([^,()]+?))?\)?\s*,\s*(.*)$", g.concl, re.S)
    if not m:
        return []
    name, typ, body = m.group(1), (m.group(2) or "").strip(), m.group(3)
    out = ["0", "1", "2"]
    # `exists k, E = 3 * k` (what `Nat.divide` unfolds to): the quotient `E / 3` is the witness
    # when the division is exact; the mod-case closers then prove `E = 3 * (E / 3)`.
    v = re.escape(name)
    times = rf"(?:(?P<k1>\d+)\s*\*\s*{v}|{v}\s*\*\s*(?P<k2>\d+))"
    q = re.fullmatch(rf"\s*(?P<e>.+?)\s*=\s*{times}\s*", body, re.S) or re.fullmatch(rf"\s*{times}\s*=\s*(?P<e>.+?)\s*", body, re.S)
    if q and not re.search(rf"\b{v}\b", q.group("e")):
        out.insert(0, f"(({q.group('e')}) / {q.group('k1') or q.group('k2')})")
    root = linear_root(name, body)
    if root is not None and root not in out:
        out.insert(0, root)
    for n in re.findall(r"(?<![\w.])(\d+)(?![\w.])", body):
        if n not in out and len(n) <= 6:
            out.append(n)
    if typ:
        out += [v for v in g.vars_of(typ) if NAME.match(v) and v not in out]
    if (typ in ("Z", "R") or (not typ and (d.integer or d.real))) and "-1" not in out:
        out.insert(3, "(-1)")
    return out[:limit]


@family("witness", DOMAIN, "step")
def witness(f: Focus) -> list[Candidate]:
    """``exists x, P x``: candidate witnesses, the likeliest first (a linear equation's root,
    an exact quotient, small numerals, the body's numerals, variables of the binder's type)."""
    return [step(f"exists {w}", 0.5 + 0.1 * i, tag="witness") for i, w in enumerate(witnesses(f.g, f.d))]
