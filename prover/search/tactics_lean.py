"""The Lean 4 tactic table (Mathlib tactics), on the same code path as Rocq's.

No Lean toolchain exists on our machines: this table is checked only as text by the unit
tests; which candidates pay off on Lean has not been measured.
"""

from __future__ import annotations

import re

from .tactics import _NAME, Candidate, GoalInfo


def lean_candidates(g: GoalInfo) -> tuple[list[Candidate], list[Candidate]]:
    """(closers, steps) for a parsed Lean goal."""
    return _lean_closers(g), _lean_steps(g)

def _lean_closers(g: GoalInfo) -> list[Candidate]:
    c = [
        Candidate(tactic="rfl", kind="close", timeout=1, tag="rfl"),
        Candidate(tactic="norm_num", kind="close", timeout=2, tag="norm_num"),
        Candidate(tactic="omega", kind="close", timeout=2, tag="omega"),
        Candidate(tactic="linarith", kind="close", timeout=2, tag="linarith"),
        Candidate(tactic="positivity", kind="close", timeout=2, tag="positivity"),
        Candidate(tactic="nlinarith", kind="close", timeout=3, tag="nlinarith"),
        Candidate(tactic="decide", kind="close", timeout=2, tag="decide"),
        Candidate(tactic="simp_all", kind="close", timeout=2, tag="simp_all"),
        Candidate(tactic="field_simp; ring_nf", kind="close", timeout=2, tag="field_simp"),
        Candidate(tactic="tauto", kind="close", timeout=2, tag="tauto"),
    ]
    xs = [v for v in g.vars_of("ℝ", "ℚ", "ℤ", "ℕ") if _NAME.match(v)][:4]
    if xs:
        hints = [f"sq_nonneg ({a} - {b})" for i, a in enumerate(xs) for b in xs[i + 1 :]] + [f"sq_nonneg {a}" for a in xs]
        c.append(Candidate(tactic=f"nlinarith [{', '.join(hints[:8])}]", kind="close", timeout=3, tag="nlinarith-hint"))
    return c


def _lean_steps(g: GoalInfo) -> list[Candidate]:
    s = []
    concl = g.concl
    if concl.startswith(("∀", "¬")) or "→" in concl:
        s.append(Candidate(tactic="intro", kind="step", cost=0.2, tag="intro"))
    if "∧" in concl or "↔" in concl:
        s.append(Candidate(tactic="constructor", kind="step", cost=0.5, tag="constructor"))
    if any("∧" in h.type or h.type.startswith("∃") for h in g.hyps):
        s.append(Candidate(tactic="casesm* _ ∧ _, ∃ _, _", kind="step", cost=0.2, tag="destruct-and"))
    s.append(Candidate(tactic="subst_vars", kind="step", cost=0.3, tag="subst"))
    s.append(Candidate(tactic="norm_num at *", kind="step", cost=0.8, tag="norm_num-at"))
    s.append(Candidate(tactic="field_simp at *", kind="step", cost=0.8, tag="field_simp-at"))
    for h in g.hyps:
        if h.type.startswith("∀") and "=" in h.type:
            s.append(Candidate(tactic=f"simp only [{h.names[0]}] at *", kind="step", cost=0.3, tag="rewrite-def"))
    for v, top in _lean_bounds(g):
        s.append(Candidate(tactic=f"interval_cases {v} <;> omega", kind="close", timeout=3, tag="interval_cases"))
    return s


def _lean_bounds(g: GoalInfo) -> list[tuple[str, int]]:
    nats = set(g.vars_of("ℕ", "ℤ"))
    out = []
    for h in g.hyps:
        m = re.match(r"^(\w+)\s*(<|≤)\s*(\d+)$", h.type.strip())
        if m and m.group(1) in nats and int(m.group(3)) <= 30:
            out.append((m.group(1), int(m.group(3))))
    return out
