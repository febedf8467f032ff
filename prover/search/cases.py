"""Case splits: goals decided by enumerating the finitely many values a variable can take.

What is covered: a variable under ``mod k`` in a nonlinear term (split on the ``k`` remainders);
``Z`` variables bounded by numerals on both sides; a "least ``n``" goal ``k <= n`` (each smaller
value refuted); unknowns bounded by an equation's numeral (``nia`` proves the bound, then a
split); factor pairs of ``x * y = N`` (one factor is at most ``isqrt N``); every pair of values of
two bounded ``nat`` variables; exponents of a numeral base bounded by the other side; positive
``nat`` variables written as ``S n``; ``Rmax``/``Rmin``/``Rabs`` case analysis.
What is not covered: splits over more than a few hundred cases (they would not finish).
"""

from __future__ import annotations

import math
import re

from .family import Focus, close, family, step
from .goal import (
    NAME,
    Candidate,
    Domain,
    GoalInfo,
    Quotients,
    equation_numeral_max,
    eval_numeral,
    int_ranges,
    is_eq,
    positive_nats,
    small_bounds,
)

DOMAIN = "case splits"


def mod_splits(g: GoalInfo, d: Domain, limit: int = 2) -> list[tuple[str, int]]:
    """``(v, k)`` for a variable ``v`` of the goal's type under ``mod k`` (``k`` a numeral 2..12)
    in a nonlinear term of the conclusion: ``a ^ 2 mod 3``, ``(n ^ 3 + 2 * n) mod 3``."""
    typ = "Z" if d.integer and not d.natural else "nat"
    names = [v for v in g.vars_of(typ) if NAME.match(v)]
    out: list[tuple[str, int]] = []
    concl = " ".join(g.concl.split())
    if not re.search(r"\^|\*", concl):
        return out
    for m in re.finditer(r"(?:\bmod|/)\s+(\d+)\b", concl):
        k = int(m.group(1))
        if not 2 <= k <= 12:
            continue
        for v in names:
            if re.search(rf"\b{re.escape(v)}\b", concl[: m.start()]) and (v, k) not in out:
                out.append((v, k))
    return out[:limit]


def mod_case_split(v: str, k: int, d: Domain) -> str:
    """Write ``v = k q + r`` with ``0 <= r < k``, split on the ``k`` values of ``r``, and let
    ``nia`` finish each case over ``Z`` (where ``Z.div_mod_to_equations`` names the remainders).
    Qualified tactic names: ``Lia`` loads ``Zify`` and ``PreOmega`` without importing them."""
    cases = " \\/ ".join(f"r_ = {i}" for i in range(k))
    if d.integer and not d.natural:
        head = f"pose proof (Z.div_mod {v} {k} ltac:(lia)) as Hdm_; pose proof (Z.mod_pos_bound {v} {k} ltac:(lia)) as Hmb_"
        tail = "PreOmega.Z.div_mod_to_equations; nia"
    else:
        head = f"pose proof (Nat.div_mod {v} {k} ltac:(lia)) as Hdm_; pose proof (Nat.mod_upper_bound {v} {k} ltac:(lia)) as Hmb_"
        tail = (
            "rewrite ?Nat.pow_succ_r', ?Nat.pow_0_r; Zify.zify; rewrite ?Znat.Nat2Z.inj_mod, ?Znat.Nat2Z.inj_div in *; "
            "Zify.zify; PreOmega.Z.div_mod_to_equations; nia"
        )
    return (
        f"{head}; set (q_ := {v} / {k}) in *; set (r_ := {v} mod {k}) in *; clearbody q_ r_; subst {v}; "
        f"assert (Hr_ : {cases}) by lia; repeat destruct Hr_ as [Hr_ | Hr_]; subst r_; {tail}"
    )


def derived_bounds(g: GoalInfo, limit: int = 2, top: int = 100) -> list[tuple[str, int]]:
    """``(v, K)`` for ``nat`` variables without a stated bound, ``K`` the largest numeral of an
    equation among the hypotheses (<= ``top``): ``nia`` may prove ``v <= K`` (``x * y + x = 44``),
    and a case split then finishes each value."""
    bounded = {v for v, _ in small_bounds(g)}
    big = equation_numeral_max(g, top)
    if not big:
        return []
    vs = [v for v in g.vars_of("nat") if v not in bounded and NAME.match(v)]
    return [(v, big) for v in vs[:limit]]


def derived_z_bounds(g: GoalInfo, limit: int = 2, top: int = 60) -> list[tuple[str, int, int]]:
    """``(v, lo, K)`` for ``Z`` variables with a stated lower bound ``lo >= 0`` and no upper one,
    ``K`` the largest numeral of a hypothesis equation (<= ``top``): as ``derived_bounds``."""
    ranged = {v for v, _, _ in int_ranges(g)}
    big = equation_numeral_max(g, top)
    if not big:
        return []
    out: list[tuple[str, int, int]] = []
    for h in g.hyps:
        t = " ".join(h.type.split()).replace("%Z", "")
        m = re.fullmatch(r"(\d+)\s*(<=|<)\s*([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*(>=|>)\s*(\d+)", t)
        if not m:
            continue
        v = m.group(3) or m.group(4)
        lo = int(m.group(1) or m.group(6)) + (1 if (m.group(2) or m.group(5)) in ("<", ">") else 0)
        if v in g.vars_of("Z") and v not in ranged and lo <= big and v not in [o[0] for o in out]:
            out.append((v, lo, big))
    return out[:limit]


_PRODUCT = r"([A-Za-z_]\w*)\s*\*\s*([A-Za-z_]\w*)\s*=\s*(\d+)|(\d+)\s*=\s*([A-Za-z_]\w*)\s*\*\s*([A-Za-z_]\w*)"


def factor_pairs(g: GoalInfo, limit: int = 1, top: int = 80) -> list[tuple[str, str, int]]:
    """``(x, y, r)`` for a hypothesis ``x * y = N`` (``nat`` variables, ``N`` a numeral): one of the
    two factors is at most ``r = isqrt N``, so a case split on each side over ``0..r`` finds every
    factorisation (``a * b = 391`` -> 17 * 23) where a split up to ``N`` would be too long."""
    nats = set(g.vars_of("nat"))
    out = []
    for h in g.hyps:
        m = re.fullmatch(_PRODUCT, h.type.strip())
        if not m:
            continue
        x, y, n = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(5), m.group(6), m.group(4))
        r = math.isqrt(int(n))
        if x in nats and y in nats and x != y and 2 <= r <= top:
            out.append((x, y, r))
    return out[:limit]


def exponent_bounds(g: GoalInfo, limit: int = 2, cap: int = 50000) -> list[tuple[str, str]]:
    """``(v, tactic)`` proving ``v <= K`` for a ``nat`` exponent ``v`` of a numeral base ``c``
    in an equation whose other side is a numeral ``N`` (``5 ^ a * 2 ^ b = 200``): ``K`` is
    the largest with ``c ^ K <= N``; were ``v > K``, ``c ^ v >= c ^ (K + 1) > N``, the other
    powers being positive. Small numbers only: the proof computes ``c ^ (K + 1)`` in unary."""
    nats = {v for v in g.vars_of("nat") if NAME.match(v)}
    bounded = {v for v, _ in small_bounds(g)}
    out: list[tuple[str, str]] = []
    for h in g.hyps:
        typ = " ".join(h.type.split())
        if "forall" in typ or not is_eq(typ) or typ.count(" = ") != 1:
            continue
        left, right = typ.split(" = ")
        for side, other in ((left, right), (right, left)):
            n = eval_numeral(other.strip("() "))
            if n is None or n.denominator != 1 or n < 1:
                continue
            powers = re.findall(r"\b(\d+) \^ ([A-Za-z_]\w*)\b", side)
            for base, v in powers:
                c = int(base)
                if v not in nats or v in bounded or c < 2 or any(v == w for w, _ in out):
                    continue
                k = 0
                while c ** (k + 1) <= n:
                    k += 1
                if c ** (k + 1) > cap:
                    continue
                pos = "; ".join(
                    f"pose proof (Nat.pow_nonzero {b} {e} ltac:(lia))" for b, e in powers if (b, e) != (str(c), v)
                )
                tac = (
                    f"assert (Hb_{v} : {v} <= {k}) by (destruct (Nat.le_gt_cases {v} {k}) as [Hle_ | Hgt_]; "
                    f"[exact Hle_ | exfalso]; pose proof (Nat.pow_le_mono_r {c} (S {k}) {v} ltac:(lia) Hgt_) as Hpw_; "
                    f"simpl in Hpw_; {pos + '; ' if pos else ''}nia)"
                )
                out.append((v, tac))
    return out[:limit]


def interval_split_tactic(v: str, lo: int, hi: int) -> str:
    """Name every integer value of ``v`` in ``[lo, hi]`` and close each case."""
    cases = " \\/ ".join(f"{v} = {k if k >= 0 else f'({k})'}" for k in range(lo, hi + 1))
    close = "first [lia | nia | vm_compute; reflexivity | vm_compute in *; lia | simpl in *; congruence]"
    return f"assert (Hc_ : {cases}) by lia; repeat destruct Hc_ as [Hc_ | Hc_]; subst {v}; {close}"


def below_split(v: str, k: int) -> str:
    """``k <= v`` (a "least such n" goal): refute each value ``v = 0 .. k-1`` by computation."""
    close = "first [lia | vm_compute in *; lia | simpl in *; lia | vm_compute in *; congruence]"
    return (
        f"assert (Hc_ : {v} < {k} \\/ {k} <= {v}) by lia; destruct Hc_ as [Hlt_ | Hge_]; "
        f"[do {k} (destruct {v} as [|{v}]; [{close} | ]); lia | lia]"
    )


def case_split_tactic(v: str, top: int) -> str:
    """Peel ``v = 0, 1, ..., top`` off one by one, closing each numeric case; the rest is out of bounds."""
    close = "first [lia | simpl in *; lia | vm_compute in *; lia | vm_compute; reflexivity | simpl in *; congruence]"
    return f"do {top + 1} (destruct {v} as [|{v}]; [{close} | ]); lia"


def nested_case_split(bounds: list[tuple[str, int]]) -> str:
    """Every combination of values of two bounded variables: the second is split inside each
    case of the first (a case of one variable alone does not decide a goal about both)."""
    close = "first [vm_compute in *; lia | simpl in *; lia]"  # vm_compute: simpl and congruence crawl on unary 16000
    (v, top), (w, top2) = bounds[:2]
    inner = f"do {top2 + 1} (destruct {w} as [|{w}]; [{close} | ]); lia"
    return f"do {top + 1} (destruct {v} as [|{v}]; [{inner} | ]); lia"


def _whole_numbers(f: Focus) -> bool:
    return (f.d.natural or f.d.integer) and not f.d.real


@family("mod-cases", DOMAIN, "close")
def mod_cases(f: Focus) -> list[Candidate]:
    """A ``nat``/``Z`` goal with ``v`` under ``mod k`` (``k`` in 2..12) in a nonlinear term
    (``(n ^ 2 + n) mod 2 = 0``): ``v = k q + r``, one case per remainder ``r``, ``nia`` on each."""
    if not _whole_numbers(f):
        return []
    return [close(mod_case_split(v, k, f.d), 2, tag="mod-cases") for v, k in mod_splits(f.g, f.d)]


@family("interval-split", DOMAIN, "close")
def interval_split(f: Focus) -> list[Candidate]:
    """A root ``Z`` goal with a variable bounded by numerals on both sides (``1 <= x <= 9``):
    one case per value, each closed by arithmetic or computation."""
    if not (f.root and f.d.integer and not f.d.real):
        return []
    return [close(interval_split_tactic(v, lo, hi), 3, tag="interval-split") for v, lo, hi in int_ranges(f.g)[:2]]


@family("least-split", DOMAIN, "close")
def least_split(f: Focus) -> list[Candidate]:
    """``k <= n`` for a ``nat`` variable ``n`` (the "least such ``n``" half of a minimum): every
    value below ``k`` refuted by computation on the hypotheses."""
    m = re.fullmatch(r"\s*(\d+)\s*<=\s*([A-Za-z_]\w*)\s*|\s*([A-Za-z_]\w*)\s*>=\s*(\d+)\s*", f.concl)
    if not (m and f.d.natural and not f.d.real and not f.d.integer):
        return []
    k, v = (int(m.group(1)), m.group(2)) if m.group(1) else (int(m.group(4)), m.group(3))
    return [close(below_split(v, k), 3, tag="least-split")] if v in f.g.vars_of("nat") and 1 <= k <= 400 else []


@family("bound-split", DOMAIN, "close")
def bound_split(f: Focus) -> list[Candidate]:
    """``nat``/``Z`` unknowns without a stated upper bound in a goal with a hypothesis equation
    (``x * y + x = 44``): ``nia`` proves ``v <= K`` for the equation's largest numeral ``K``,
    then one case per value. At the root, and below it for the quotients a ``Quotients`` fact
    names (the gcd step's new unknowns)."""
    quotients = {n for q in f.facts_of(Quotients) for n in q.names}
    if not ((f.root or quotients & set(f.g.hyp_names())) and _whole_numbers(f)):
        return []
    out = []
    for v, top in derived_bounds(f.g):
        tac = f"assert ({v} <= {top}) by nia; do {top + 1} (destruct {v} as [|{v}]; [first [lia | nia] | ]); lia"
        out.append(close(tac, 3, tag="bound-split"))
    for v, lo, top in derived_z_bounds(f.g):
        cases = " \\/ ".join(f"{v} = {k}" for k in range(lo, top + 1))
        out.append(close(
            f"assert (Hb_ : {v} <= {top}) by nia; assert (Hc_ : {cases}) by lia; "
            f"repeat destruct Hc_ as [Hc_ | Hc_]; subst {v}; first [lia | nia]",
            3,
            tag="bound-split",
        ))
    return out


@family("factor-split", DOMAIN, "close")
def factor_split(f: Focus) -> list[Candidate]:
    """A root ``nat`` goal with ``x * y = N``: one of the factors is at most ``r = isqrt N``, so
    a split of each side over ``0..r`` meets every factorisation."""
    d = f.d
    if not (f.root and d.natural and not d.real and not d.integer):
        return []
    out = []
    for x, y, r in factor_pairs(f.g):
        def split(v: str, r: int = r) -> str:
            return f"do {r + 1} (destruct {v} as [|{v}]; [first [lia | nia] | ]); lia"

        tac = f"assert (Hs_ : {x} <= {r} \\/ {y} <= {r}) by nia; destruct Hs_ as [Hs_ | Hs_]; [{split(x)} | {split(y)}]"
        out.append(close(tac, 4, tag="factor-split"))
    return out


@family("pair-split", DOMAIN, "close")
def pair_split(f: Focus) -> list[Candidate]:
    """Two ``nat`` variables with numeral upper bounds (at most 150 combinations): every pair of
    values, since a case of one variable alone does not decide a goal about both."""
    if not (f.d.natural and not f.d.real):
        return []
    bounds = list(dict(small_bounds(f.g)).items())
    if len(bounds) >= 2 and (bounds[0][1] + 1) * (bounds[1][1] + 1) <= 150:
        return [close(nested_case_split(bounds), 3, tag="case-split")]
    return []


@family("minmax-cases", DOMAIN, "step")
def minmax_cases(f: Focus) -> list[Candidate]:
    """``Rmax``/``Rmin`` in a real goal: unfolded, one goal per outcome of each comparison."""
    if not (f.d.real and re.search(r"\bR(?:max|min)\b", f.g.all_text)):
        return []
    return [step(
        "unfold Rmax, Rmin in *; repeat match goal with H : context [Rle_dec ?x ?y] |- _ => destruct (Rle_dec x y) "
        "| |- context [Rle_dec ?x ?y] => destruct (Rle_dec x y) end",
        0.5,
        tag="minmax-cases",
    )]


@family("rabs-cases", DOMAIN, "step")
def rabs_cases(f: Focus) -> list[Candidate]:
    """``Rabs`` in the goal: unfolded, one goal per sign of each argument (then linear)."""
    if "Rabs" not in f.g.all_text:
        return []
    return [step(
        "unfold Rabs in *; repeat match goal with H : context [Rcase_abs ?x] |- _ => destruct (Rcase_abs x) "
        "| |- context [Rcase_abs ?x] => destruct (Rcase_abs x) end",
        0.5,
        tag="rabs-cases",
    )]


@family("exp-bound", DOMAIN, "step")
def exp_bound(f: Focus) -> list[Candidate]:
    """A ``nat`` equation ``c ^ v * ... = N`` (``5 ^ a * 2 ^ b = 200``): ``v <= K`` with ``c ^ K <= N``
    as a hypothesis, so that the bounded case split can enumerate the exponent."""
    if not (f.d.natural and not f.d.real and not f.d.integer):
        return []
    return [step(tac, 0.4, tag="exp-bound") for _, tac in exponent_bounds(f.g)]


@family("pos-destruct", DOMAIN, "step")
def pos_destruct(f: Focus) -> list[Candidate]:
    """A positive ``nat`` variable (``0 < n``) used as an exponent, under ``fact``, in ``n - 1``
    or as a function argument: written as ``S n`` so ``simpl`` unfolds one step."""
    return [step(f"destruct {v} as [|{v}]; [lia|]", 0.6, tag="pos-destruct") for v in positive_nats(f.g)] if f.d.natural else []


@family("case-split", DOMAIN, "step")
def case_split(f: Focus) -> list[Candidate]:
    """A ``nat``/``Z`` variable with a numeral upper bound (``n < 4``): peel off each value,
    closing the numeric cases on the way; what is left is out of bounds."""
    if not (f.d.natural or f.d.integer):
        return []
    return [step(case_split_tactic(v, bound), 0.5, timeout=3.0, tag="case-split") for v, bound in small_bounds(f.g)]
