"""Standard-library lemma families, keyed by the head symbols of the goal.

What is covered: for each function of the goal that the standard library has a family of
lemmas about (``Nat.gcd``/``Nat.lcm``, ``Z.gcd``, ``length``/``app``/``rev``/``map``,
``Nat.even``/``Nat.odd``), the family's lemmas are tried as single rewrites or ``apply`` followed
by the arithmetic closers, and all together through ``hauto use: ...`` (CoqHammer's
reconstruction tactic, no ATP: the kept proof needs only ``From Hammer Require Import
Tactics.``). Parity goals ``Nat.odd e = true`` are also turned into their existential spec
with each variable as the witness.

What is not covered: lemmas found by ``Search`` at run time (the warm session does not return
``Search`` output yet); the families here are a fixed table written from the standard
library's names (checked to exist in Coq 8.16 by the tests).
"""

from __future__ import annotations

import re

from .hammer import TACTICS_IMPORT
from .tactics import Candidate, Domain, GoalInfo, ProblemContext

LEMMA_FAMILIES: dict[str, tuple[str, ...]] = {
    r"\bNat\.gcd\b": ("Nat.gcd_comm", "Nat.gcd_assoc", "Nat.gcd_0_l", "Nat.gcd_0_r", "Nat.gcd_diag", "Nat.gcd_1_l", "Nat.gcd_1_r"),
    r"\bNat\.lcm\b": ("Nat.lcm_comm", "Nat.lcm_assoc", "Nat.lcm_0_l", "Nat.lcm_0_r", "Nat.lcm_diag", "Nat.gcd_lcm_absorb"),
    r"\bZ\.gcd\b": ("Z.gcd_comm", "Z.gcd_assoc", "Z.gcd_0_l", "Z.gcd_0_r", "Z.gcd_diag", "Z.gcd_nonneg"),
    r"\blength\b": ("app_length", "rev_length", "map_length", "repeat_length", "seq_length"),
    r"\brev\b": ("rev_app_distr", "rev_involutive", "rev_length", "map_rev", "rev_unit"),
    r"\bmap\b": ("map_app", "map_map", "map_length", "map_rev", "map_id"),
    r"\+\+": ("app_assoc", "app_nil_r", "app_length", "app_comm_cons"),
    r"\bNat\.(?:even|odd)\b": ("Nat.even_add_mul_2", "Nat.odd_add_mul_2", "Nat.even_mul", "Nat.odd_mul", "Nat.even_add", "Nat.odd_add", "Nat.even_2", "Nat.odd_1"),
}
"""Head-symbol pattern -> the standard library's lemmas about it (most useful first)."""


def family_lemmas(g: GoalInfo, limit: int = 8) -> list[str]:
    """The lemmas of every family whose head symbol occurs in the conclusion, ranked by how
    many of the conclusion's head symbols their family shares, without repeats."""
    concl = g.concl
    hits = [(pat, lemmas) for pat, lemmas in LEMMA_FAMILIES.items() if re.search(pat, concl)]
    ranked: list[str] = []
    for _, lemmas in hits:
        for lem in lemmas:
            if lem not in ranked:
                ranked.append(lem)
    shared = {lem: sum(lem in ls for _, ls in hits) for lem in ranked}
    return sorted(ranked, key=lambda lem: -shared[lem])[:limit]


def lemma_closers(g: GoalInfo, d: Domain, ctx: ProblemContext, depth: int) -> list[Candidate]:
    """Goal: an equation or fact about library functions (``Nat.lcm b a = Nat.lcm a b``,
    ``length (rev (m ++ l)) = length l + length m``). Why: the library already proves it or the
    rewrites that reduce it to arithmetic; ``hauto`` combines several of them."""
    if depth > 1:
        return []
    lemmas = family_lemmas(g)
    if not lemmas:
        return []
    fin = "solve [reflexivity | lia | ring | congruence | auto]"
    out = [
        Candidate(
            tactic=f"first [{' | '.join(f'rewrite {lem}; {fin}' for lem in lemmas[:5])} | {' | '.join(f'apply {lem}' for lem in lemmas[:5])}]",
            kind="close",
            timeout=2,
            tag="library-rewrite",
        ),
        Candidate(tactic=f"rewrite ?{', ?'.join(lem for lem in lemmas if 'comm' not in lem and 'assoc' not in lem)}; {fin}", kind="close", timeout=2, tag="library-rewrite")
        if any("comm" not in lem and "assoc" not in lem for lem in lemmas)
        else None,
        Candidate(tactic=f"hauto use: {', '.join(lemmas)}", kind="close", timeout=3, prelude=TACTICS_IMPORT, tag="library-hauto"),
    ]
    return [c for c in out if c is not None]


def parity_closers(g: GoalInfo, d: Domain, ctx: ProblemContext, depth: int) -> list[Candidate]:
    """Goal: ``Nat.odd e = true`` / ``Nat.even e = true`` (``Nat.odd (2 * k + 1) = true``). Why:
    ``Nat.odd_spec``/``Nat.even_spec`` turn it into ``exists m, e = 2 * m + 1``, and the witness
    is usually a variable of ``e`` (then ``lia`` checks the equation)."""
    m = re.fullmatch(r"\s*Nat\.(odd|even)\s+(.+?)\s*=\s*true\s*", g.concl)
    if not m:
        return []
    spec = f"Nat.{m.group(1)}_spec"
    vs = [v for v in g.vars_of("nat") if re.search(rf"\b{re.escape(v)}\b", m.group(2))][:3]
    return [Candidate(tactic=f"apply {spec}; exists {v}; lia", kind="close", timeout=2, tag="parity-spec") for v in vs]


def library_closers(g: GoalInfo, d: Domain, ctx: ProblemContext, depth: int) -> list[Candidate]:
    """Both library families' closers."""
    return parity_closers(g, d, ctx, depth) + lemma_closers(g, d, ctx, depth)
