"""The Lean 4 tactic table (Mathlib tactics), on the same code path as Rocq's.

No Lean toolchain exists on our machines: this table is checked only as text by the unit
tests; which candidates pay off on Lean has not been measured. The number-theory families
(closed modular arithmetic, remainder case splits, derived-bound splits, witnesses) mirror the
Rocq table's, written with Mathlib's tactics (``norm_num``, ``omega``, ``interval_cases``, ``use``).
"""

from __future__ import annotations

import re

from .goal import NAME, Candidate, GoalInfo, equation_numeral_max


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
    if not g.hyps and re.search(r"%|\^", g.concl) and not re.search(r"[a-zA-Z_]", re.sub(r"\b(?:Nat|Int)\b", "", g.concl)):
        # closed modular arithmetic: `(19^19 + 99^99) % 10 = 8`
        tac = "norm_num [Nat.pow_mod, Nat.add_mod, Nat.mul_mod, Int.add_emod, Int.mul_emod]"
        c.append(Candidate(tactic=tac, kind="close", timeout=3, tag="mod-compute"))
    for v, k in _lean_mod_splits(g):
        cases = " ∨ ".join(f"{v} % {k} = {i}" for i in range(k))
        pats = " | ".join("h" for _ in range(k))
        c.append(Candidate(
            tactic=f"have hr : {cases} := (by omega); rcases hr with ({pats}) <;> "
            "simp [h, pow_succ, Nat.mul_mod, Nat.add_mod, Int.mul_emod, Int.add_emod]",
            kind="close", timeout=3, tag="mod-cases",
        ))
    bounded = {v for v, _ in _lean_bounds(g)}
    top = equation_numeral_max(g, 100)
    for v in [v for v in g.vars_of("ℕ") if v not in bounded and NAME.match(v)][:2] if top else []:
        tac = f"have hb : {v} ≤ {top} := (by nlinarith); interval_cases {v} <;> omega"
        c.append(Candidate(tactic=tac, kind="close", timeout=3, tag="bound-split"))
    xs = [v for v in g.vars_of("ℝ", "ℚ", "ℤ", "ℕ") if NAME.match(v)][:4]
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
    if concl.startswith("∃"):
        for i, w in enumerate(("0", "1", "2")):
            s.append(Candidate(tactic=f"use {w}", kind="step", cost=0.5 + 0.1 * i, tag="witness"))
    s.append(Candidate(tactic="subst_vars", kind="step", cost=0.3, tag="subst"))
    s.append(Candidate(tactic="norm_num at *", kind="step", cost=0.8, tag="norm_num-at"))
    s.append(Candidate(tactic="field_simp at *", kind="step", cost=0.8, tag="field_simp-at"))
    for h in g.hyps:
        if h.type.startswith("∀") and "=" in h.type:
            s.append(Candidate(tactic=f"simp only [{h.names[0]}] at *", kind="step", cost=0.3, tag="rewrite-def"))
    for v, _top in _lean_bounds(g):
        s.append(Candidate(tactic=f"interval_cases {v} <;> omega", kind="close", timeout=3, tag="interval_cases"))
    return s


def _lean_mod_splits(g: GoalInfo, limit: int = 2) -> list[tuple[str, int]]:
    """``(v, k)`` for a variable under ``% k`` (``k`` 2..12) in a nonlinear conclusion."""
    if not re.search(r"\^|\*", g.concl):
        return []
    out: list[tuple[str, int]] = []
    for m in re.finditer(r"%\s*(\d+)\b", g.concl):
        k = int(m.group(1))
        for v in g.vars_of("ℕ", "ℤ"):
            if 2 <= k <= 12 and NAME.match(v) and re.search(rf"\b{re.escape(v)}\b", g.concl[: m.start()]) and (v, k) not in out:
                out.append((v, k))
    return out[:limit]


def _lean_bounds(g: GoalInfo) -> list[tuple[str, int]]:
    nats = set(g.vars_of("ℕ", "ℤ"))
    out = []
    for h in g.hyps:
        m = re.match(r"^(\w+)\s*(<|≤)\s*(\d+)$", h.type.strip())
        if m and m.group(1) in nats and int(m.group(3)) <= 30:
            out.append((m.group(1), int(m.group(3))))
    return out
