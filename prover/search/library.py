"""Standard-library lemma families, keyed by the head symbols of the goal.

What is covered: for each function of the goal that the standard library has a family of
lemmas about (``Nat.gcd``/``Nat.lcm``, ``Z.gcd``, ``length``/``app``/``rev``/``map``,
``Nat.even``/``Nat.odd``), the family's lemmas are tried as single rewrites or ``apply`` followed
by the arithmetic closers, and all together through ``hauto use: ...`` (CoqHammer's
reconstruction tactic, no ATP: the kept proof needs only ``From Hammer Require Import
Tactics.``). Parity goals ``Nat.odd e = true`` are also turned into their existential spec
with each variable as the witness.

Lemmas found at run time: ``searched_candidates`` (the ``library-search`` family, called by the
search once, on the root goal) runs ``Search`` in the warm session on the conclusion's own shape
(``Search (pattern).``: statements that contain the whole conclusion's shape) and on pairs of
its head symbols and the premises' functions, ranks what it returns (``rank_lemmas``) and tries
the best as ``apply``/``rewrite`` closers and through ``hauto use: ...``.

What is not covered: ``SearchRewrite`` on one side of an equation (such lemmas are found only
through the symbol pairs); goals below the root. The ``LEMMA_FAMILIES`` table is written from
the standard library's names (checked to exist in Coq 8.16 by the tests).
"""

from __future__ import annotations

import itertools
import re

from .family import Focus, family
from .goal import Candidate, Domain, GoalInfo, ProblemContext, solve_any
from .hammer import TACTICS_IMPORT

DOMAIN = "library"

LEMMA_FAMILIES: dict[str, tuple[str, ...]] = {
    r"\bNat\.gcd\b": ("Nat.gcd_comm", "Nat.gcd_assoc", "Nat.gcd_0_l", "Nat.gcd_0_r", "Nat.gcd_diag", "Nat.gcd_1_l", "Nat.gcd_1_r"),
    r"\bNat\.lcm\b": ("Nat.lcm_comm", "Nat.lcm_assoc", "Nat.lcm_0_l", "Nat.lcm_0_r", "Nat.lcm_diag", "Nat.gcd_lcm_absorb"),
    r"\bZ\.gcd\b": ("Z.gcd_comm", "Z.gcd_assoc", "Z.gcd_0_l", "Z.gcd_0_r", "Z.gcd_diag", "Z.gcd_nonneg"),
    r"\blength\b": ("app_length", "rev_length", "map_length", "repeat_length", "seq_length"),
    r"\brev\b": ("rev_app_distr", "rev_involutive", "rev_length", "map_rev", "rev_unit"),
    r"\bmap\b": ("map_app", "map_map", "map_length", "map_rev", "map_id"),
    r"\+\+": ("app_assoc", "app_nil_r", "app_length", "app_comm_cons"),
    r"\bNat\.(?:even|odd)\b": (
        "Nat.even_add_mul_2", "Nat.odd_add_mul_2", "Nat.even_mul", "Nat.odd_mul", "Nat.even_add", "Nat.odd_add", "Nat.even_2", "Nat.odd_1",
    ),
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


@family("library-rewrite", DOMAIN, "close")
def lemma_closers(f: Focus) -> list[Candidate]:
    """Goal: an equation or fact about library functions (``Nat.lcm b a = Nat.lcm a b``,
    ``length (rev (m ++ l)) = length l + length m``). Why: the library already proves it or the
    rewrites that reduce it to arithmetic; ``hauto`` combines several of them (``library-hauto``).
    At the root and one step below."""
    g, depth = f.g, f.depth
    if depth > 1 or not g.hyps:
        return []  # a closed goal (Nat.gcd 84 120 = 12) is computation, not a library fact
    lemmas = family_lemmas(g)
    if not lemmas:
        return []
    fin = solve_any(f.ctx, ("reflexivity", "lia", "ring", "congruence", "auto"))
    out = [
        Candidate(
            tactic=f"first [{' | '.join(f'rewrite {lem}; {fin}' for lem in lemmas[:5])} | "
            f"{' | '.join(f'apply {lem}' for lem in lemmas[:5])}]",
            kind="close",
            timeout=2,
            tag="library-rewrite",
        ),
        Candidate(
            tactic=f"repeat first [{' | '.join(f'rewrite {lem}' for lem in lemmas if 'comm' not in lem and 'assoc' not in lem)}]; {fin}",
            kind="close",
            timeout=2,
            tag="library-rewrite",
        )
        if any("comm" not in lem and "assoc" not in lem for lem in lemmas)
        else None,
        Candidate(tactic=f"hauto use: {', '.join(lemmas)}", kind="close", timeout=3, prelude=TACTICS_IMPORT, tag="library-hauto"),
    ]
    return [c for c in out if c is not None]


def parity_cases(module: str = "Nat") -> str:
    """Parity as boolean algebra: ``odd`` as ``negb (even _)``, ``even`` pushed through ``+``,
    ``*`` and ``S`` (``Nat``) or ``-`` and ``-x`` (``Z``) by the library's ``even_add``/``_mul``/...,
    then a case on the parity of each remaining term (its equation rewritten in the hypotheses)."""
    m = module
    to_even = "unfold Nat.odd in *" if m == "Nat" else "rewrite <- ?Z.negb_even in *"
    shapes = [("_ + _", "even_add"), ("_ * _", "even_mul")]
    shapes += [("S _", "even_succ; unfold Nat.odd")] if m == "Nat" else [("_ - _", "even_sub"), ("- _", "even_opp")]
    goal_arms = " ".join(f"| |- context [{m}.even ({p})] => rewrite {m}.{lem}" for p, lem in shapes)
    hyp_arms = " ".join(
        f"| H : context [{m}.even ({p})] |- _ => rewrite {m}.{lem.split(';')[0]} in H{'; unfold Nat.odd in H' if ';' in lem else ''}"
        for p, lem in shapes
    )
    return (
        f"{to_even}; repeat match goal with {goal_arms} {hyp_arms} end; simpl in *; "
        f"repeat match goal with |- context [{m}.even ?x] => let E := fresh \"E\" in destruct ({m}.even x) eqn:E; rewrite ?E in * end; "
        "simpl in *; solve [reflexivity | congruence | intuition congruence]"
    )


@family("parity-spec", DOMAIN, "close")
def parity_closers(f: Focus) -> list[Candidate]:
    """Goal: ``Nat.odd e = true`` / ``Nat.even e = true`` (``Nat.odd (2 * k + 1) = true``). Why:
    ``Nat.odd_spec``/``Nat.even_spec`` turn it into ``exists m, e = 2 * m + 1``, and the witness
    is usually a variable of ``e`` (then ``lia`` checks the equation). Any goal about
    ``Nat.even``/``Nat.odd`` or ``Z.even``/``Z.odd`` (``Nat.even (n * (n + 1)) = true``, parity
    hypotheses) also gets ``parity_cases``: the parities of the variables decide it by computation."""
    g = f.g
    out = []
    m = re.fullmatch(r"\s*Nat\.(odd|even)\s+(.+?)\s*=\s*true\s*", g.concl)
    if m:
        spec = f"Nat.{m.group(1)}_spec"
        vs = [v for v in g.vars_of("nat") if re.search(rf"\b{re.escape(v)}\b", m.group(2))][:3]
        out += [Candidate(tactic=f"apply {spec}; exists {v}; lia", kind="close", timeout=2, tag="parity-spec") for v in vs]
    for module in ("Nat", "Z"):
        if f.depth <= 1 and re.search(rf"\b{module}\.(?:odd|even)\b", g.concl):
            out.append(Candidate(tactic=parity_cases(module), kind="close", timeout=3, tag="parity-cases"))
    return out


# --- lemmas found by Search at run time ---------------------------------------------------------
_ENTRY = re.compile(r"^([A-Za-z_][\w'.]*):\s?(.*)$")
_NOT_SYMBOLS = frozenset(
    [
        "forall", "exists", "fun", "match", "with", "end", "if", "then", "else", "let", "in", "as", "return",
        "True", "False", "and", "or", "not", "nat", "Z", "R", "bool", "list", "option", "Type", "Prop", "Set",
        "IZR", "INR", "Z.of_nat", "Z.to_nat", "S", "O", "true", "false", "eq",
    ]
)


def parse_search(text: str) -> list[tuple[str, str]]:
    """``(name, statement)`` pairs of ``Search`` output (``name: type``, the type possibly
    continued on indented lines)."""
    out: list[tuple[str, str]] = []
    for line in text.splitlines():
        m = _ENTRY.match(line)
        if m and not line.startswith(" "):
            out.append((m.group(1), m.group(2).strip()))
        elif out and line.startswith(" "):
            name, stmt = out[-1]
            out[-1] = (name, (stmt + " " + line.strip()).strip())
    return out


BOOL_NOTATIONS = {"=?": "eqb", "<=?": "leb", "<?": "ltb"}
"""Boolean comparisons Rocq prints as notations: ``a =? b`` is ``Nat.eqb a b`` (``Z.eqb`` over ``Z``)."""


def goal_symbols(g: GoalInfo, limit: int = 4, text: str | None = None) -> list[str]:
    """The global functions of the conclusion (or of ``text``), in order of appearance:
    identifiers that are neither local names, bound variables, types nor logical words; ``++``
    stands for ``app``, ``=?``/``<=?``/``<?`` for ``Nat.eqb``/``leb``/``ltb`` (``Z.`` when the
    goal's variables are integers)."""
    text = g.concl if text is None else text
    local = set(g.hyp_names()) | set(re.findall(r"\bfun\s+([A-Za-z_][\w']*)", text))
    local |= set(re.findall(r"\bforall\s+([A-Za-z_][\w' ]*?)\s*[:,]", text))
    found: list[str] = []
    module = "Z" if g.vars_of("Z") and not g.vars_of("nat") else "Nat"
    for tok in re.findall(r"(?<![\w'.])([A-Za-z_][\w']*(?:\.[A-Za-z_][\w']*)*)(?![\w'])|(\+\+|<=\?|<\?|=\?)", text):
        name = tok[0] or (f"{module}.{BOOL_NOTATIONS[tok[1]]}" if tok[1] in BOOL_NOTATIONS else "app")
        if name in local or name in _NOT_SYMBOLS or name in found or re.fullmatch(r"\d+", name):
            continue
        found.append(name)
    return found[:limit]


def hypothesis_symbols(g: GoalInfo, limit: int = 2) -> list[str]:
    """The global functions of the hypotheses that the conclusion does not mention (``rev`` in
    ``H : In a (rev l)`` for the goal ``In a l``): the lemma that links the premise to the goal
    names both (``in_rev``)."""
    concl = set(goal_symbols(g, limit=100))
    found: list[str] = []
    for h in g.hyps:
        for name in goal_symbols(g, limit=100, text=h.type):
            if name not in concl and name not in found:
                found.append(name)
    return found[:limit]


def goal_pattern(g: GoalInfo) -> str | None:
    """The conclusion with every local name replaced by ``_`` (a ``Search`` pattern for lemmas
    of the same shape: ``Rabs (_ + _) <= Rabs _ + Rabs _``); None when nothing is left to match."""
    local = set(g.hyp_names()) | set(re.findall(r"\bfun\s+([A-Za-z_][\w']*)", g.concl))
    if not local or "forall" in g.concl or "exists" in g.concl or "fun" in g.concl or "\n" in g.concl.strip():
        return None
    pat = re.sub(r"(?<![\w'.])([A-Za-z_][\w']*)(?![\w'.])", lambda m: "_" if m.group(1) in local else m.group(1), g.concl)
    return pat if re.search(r"[A-Za-z]|\?", pat) else None  # a name, or a boolean comparison (`_ =? _`)


def search_queries(symbols: list[str], g: GoalInfo | None = None, limit: int = 3, premises: list[str] | None = None) -> list[str]:
    """``Search`` commands: the conclusion's own shape (``Search (pattern).``) when it has one,
    then the symbols in adjacent pairs (lemmas relating two of the goal's functions), or the
    single symbol when there is only one; then the first symbol with each of ``premises`` (the
    hypotheses' own functions, ``hypothesis_symbols``)."""
    out = []
    pat = goal_pattern(g) if g is not None else None
    if pat:
        out.append(f"Search ({pat}).")
    if len(symbols) == 1:
        out.append(f"Search {symbols[0]}.")
    out += [f"Search {a} {b}." for a, b in itertools.pairwise(symbols)]
    out += [f"Search {symbols[0]} {p}." for p in premises or [] if symbols]
    return out[:limit]


def rank_lemmas(found: list[tuple[str, str]], symbols: list[str], limit: int = 6, exact: list[str] | None = None) -> list[str]:
    """Lemma names, best first: those matching the conclusion's whole shape (``exact``), then more
    of the goal's symbols in the statement, then fewer premises (``->``), then shorter statements."""
    exact = exact or []

    def score(entry: tuple[str, str]):
        name, stmt = entry
        shared = sum(bool(re.search(rf"(?<![\w'.]){re.escape(s)}(?![\w'])" if s != "app" else r"\+\+|\bapp\b", stmt)) for s in symbols)
        premises = stmt.count("->")
        return (name not in exact, -shared, premises, len(stmt))
    seen: list[str] = []
    for name, _ in sorted(found, key=score):
        if name not in seen:
            seen.append(name)
    return seen[:limit]


def searched_candidates(
    session, state: int, g: GoalInfo, d: Domain, seconds: float = 10.0, ctx: ProblemContext | None = None
) -> tuple[list[Candidate], float, int]:
    """Candidates from the library lemmas ``Search`` finds for the conclusion's functions, run in
    the warm session on ``state`` within ``seconds`` in all; returns them, the seconds the queries
    took and their number (``ctx``: the tactics the session knows). Goal: an
    equation or fact about library functions that ``library.LEMMA_FAMILIES`` does not list."""
    import time

    symbols = goal_symbols(g)
    if not symbols or not g.hyps:
        return [], 0.0, 0
    t0 = time.monotonic()
    found: list[tuple[str, str]] = []
    exact: list[str] = []
    premises = hypothesis_symbols(g)
    queries = search_queries(symbols, g, premises=premises)
    linking = {f"Search {symbols[0]} {p}." for p in premises}
    for q in queries:
        left = seconds - (time.monotonic() - t0)
        if left < 0.5:
            break  # the caller's budget: the queries never run past it
        try:
            out = session.run_tactic(state, q, timeout=min(5.0, left))
        except Exception:  # noqa: BLE001 - a query that fails (timeout, bad name) only yields nothing
            continue
        if out.ok:
            hits = parse_search("\n".join(m.text for m in out.messages if m.severity.value == "info"))[:60]
            if q.startswith("Search (") or q in linking:
                exact += [name for name, _ in hits]  # the goal's shape, or a premise's function linked to the goal's
            found += hits
    lemmas = rank_lemmas(found, symbols + premises, exact=exact)
    spent = time.monotonic() - t0
    if not lemmas:
        return [], spent, len(queries)
    real, nat = ("reflexivity", "lra", "nra", "field", "auto"), ("reflexivity", "lia", "nia", "ring", "congruence", "auto")
    fin = solve_any(ctx or ProblemContext(), real if d.real else nat)
    tries = [f"rewrite {lem}; {fin}" for lem in lemmas] + [f"rewrite <- {lem}; {fin}" for lem in lemmas]
    tries += [f"apply {lem}; {fin}" for lem in lemmas]
    cands = [
        Candidate(
            tactic="first [" + " | ".join(f"apply {lem}" for lem in lemmas) + " | " + " | ".join(tries) + "]",
            kind="close",
            timeout=3,
            tag="library-search",
        ),
        Candidate(tactic=f"hauto use: {', '.join(lemmas[:4])}", kind="close", timeout=3, prelude=TACTICS_IMPORT, tag="library-search"),
    ]
    cands += [Candidate(tactic=f"rewrite {lem}", kind="step", timeout=1, cost=0.5, tag="library-search") for lem in lemmas[:3]]
    return cands, spent, len(queries)
