"""Generated Rocq theorems with known difficulty, for training a policy from scratch.

Each family is a pure function ``(rng, difficulty) -> (header, statement, witness)``; the
``witness`` is a tactic script the generator knows proves the statement (tests compile
every family's witnesses; the policy never sees them).

Families (difficulty d = 1..max):
- ``eval_nat``: closed nat arithmetic with d+1 operations, ``e = value`` (reflexivity).
- ``lin_nat``: linear inequality over nat with d variables, sometimes with a hypothesis
  or a ``forall`` (lia).
- ``lin_z``: linear (in)equality over Z with d variables, negative coefficients (lia).
- ``ring_q``: a product of d+1 linear factors over Q equals its expansion (``ring``;
  ``intros. ring`` when quantified). ``lia`` cannot do Q.
- ``taut``: an intuitionistic tautology of nesting depth d over Prop atoms (tauto).
- ``conj``: a conjunction of a tautology and a linear fact (2 conjuncts; 3 from d=3):
  ``split. tauto. lia.`` and the like - needs a multi-step script in the right order.

Splits: a problem is held out iff a hash of its (family, statement) falls in bucket 0 of 8;
so the train and held-out sets are disjoint by construction and stable under reseeding.
Generation is deterministic given ``seed``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator

from .records import Problem

LIA = "From Coq Require Import Lia."
ZLIA = "From Coq Require Import ZArith Lia.\nOpen Scope Z_scope."
QRING = "From Coq Require Import QArith.\nOpen Scope Q_scope."

VARS = ("x", "y", "z", "w", "u", "v", "a", "b")
ATOMS = ("P", "Q", "R", "S")


def _lin(coefs: list[int], names: list[str], const: int) -> str:
    terms: list[str] = []
    for c, n in zip(coefs, names):
        if c == 0:
            continue
        t = n if abs(c) == 1 else f"{abs(c)} * {n}"
        if not terms:
            terms.append(t if c > 0 else f"- {t}")
        else:
            terms.append(("+ " if c > 0 else "- ") + t)
    if const or not terms:
        if not terms:
            terms.append(str(const) if const >= 0 else f"- {-const}")
        else:
            terms.append(("+ " if const > 0 else "- ") + str(abs(const)))
    return " ".join(terms)


def eval_nat(rng: random.Random, d: int) -> tuple[str, str, str]:
    expr, value = str(rng.randint(0, 9)), None
    value = int(expr)
    for _ in range(d + 1):
        n = rng.randint(1, 9)
        if rng.random() < 0.5 or value * n > 400:
            expr, value = f"{expr} + {n}", value + n
        else:
            expr, value = f"({expr}) * {n}", value * n
    return "", f": {expr} = {value}", "reflexivity."


def lin_nat(rng: random.Random, d: int) -> tuple[str, str, str]:
    names = list(VARS[:d])
    a = [rng.randint(0, 4) for _ in names]
    extra = [rng.randint(0, 3) for _ in names]
    c0, e0 = rng.randint(0, 9), rng.randint(0, 9)
    lhs = _lin(a, names, c0)
    rhs = _lin([x + e for x, e in zip(a, extra)], names, c0 + e0)
    form = rng.randrange(3)
    binders = " ".join(names)
    if form == 0:
        return LIA, f"({binders} : nat) : {lhs} <= {rhs}", "lia."
    if form == 1:
        return LIA, f": forall {binders} : nat, {lhs} <= {rhs}", "lia."
    # hypothesis form: x1 <= x2 -> ... with the first coefficient moved across
    k = rng.randint(1, 3)
    h = f"{names[0]} <= {names[-1]}" if d > 1 else f"{names[0]} <= 10"
    bound = names[-1] if d > 1 else "10"
    return LIA, f"({binders} : nat) : {h} -> {k} * {names[0]} + {c0} <= {k} * {bound} + {c0 + e0}", "lia."


def lin_z(rng: random.Random, d: int) -> tuple[str, str, str]:
    names = list(VARS[:d])
    a = [rng.choice([-3, -2, -1, 1, 2, 3]) for _ in names]
    c = rng.randint(-9, 9)
    binders = " ".join(names)
    if rng.random() < 0.5:
        # a.x + c < a.x + c + e  (strict, e > 0)
        e = rng.randint(1, 9)
        return ZLIA, f"({binders} : Z) : {_lin(a, names, c)} < {_lin(a, names, c + e)}", "lia."
    # rearranged equality: a.x + c = (a.x with one term moved) ...
    perm = list(range(d))
    rng.shuffle(perm)
    lhs = _lin(a, names, c)
    rhs = _lin([a[i] for i in perm], [names[i] for i in perm], c)
    return ZLIA, f": forall {binders} : Z, {lhs} = {rhs}", "lia."


def _poly_mul(p: dict, q: dict) -> dict:
    out: dict = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            m = tuple(x + y for x, y in zip(m1, m2))
            out[m] = out.get(m, 0) + c1 * c2
    return {m: c for m, c in out.items() if c}


def _poly_text(p: dict, names: list[str]) -> str:
    parts: list[str] = []
    for mono in sorted(p, reverse=True):
        c = p[mono]
        factors = []
        for n, e in zip(names, mono):
            factors += [n] * e
        body = " * ".join(factors)
        mag = abs(c)
        t = (f"{mag} * {body}" if mag != 1 else body) if body else str(mag)
        if not parts:
            parts.append(t if c > 0 else f"- {t}")
        else:
            parts.append(("+ " if c > 0 else "- ") + t)
    return " ".join(parts) if parts else "0"


def ring_q(rng: random.Random, d: int) -> tuple[str, str, str]:
    names = ["x", "y"] if d < 3 else ["x", "y", "z"]
    n = len(names)
    factors, poly = [], {tuple([0] * n): 1}
    for _ in range(d + 1):
        f: dict = {}
        for i in range(n):
            if rng.random() < 0.8:
                mono = tuple(1 if j == i else 0 for j in range(n))
                f[mono] = rng.choice([-2, -1, 1, 1, 2, 3])
        if not f:
            f[tuple(1 if j == 0 else 0 for j in range(n))] = 1
        c = rng.randint(-3, 3)
        if c:
            f[tuple([0] * n)] = c
        factors.append(f)
        poly = _poly_mul(poly, f)
    lhs = " * ".join(f"({_poly_text(f, names)})" for f in factors)
    rhs = _poly_text(poly, names)
    binders = " ".join(names)
    if rng.random() < 0.5:
        return QRING, f"({binders} : Q) : {lhs} == {rhs}", "ring."
    return QRING, f": forall {binders} : Q, {lhs} == {rhs}", "intros. ring."


# Intuitionistically valid schemas; substituting formulas for A, B, C keeps them valid.
_SCHEMAS = (
    "{A} -> {A}",
    "{A} /\\ {B} -> {B} /\\ {A}",
    "{A} \\/ {B} -> {B} \\/ {A}",
    "({A} -> {B}) -> ({B} -> {C}) -> {A} -> {C}",
    "{A} -> {B} -> {A} /\\ {B}",
    "({A} -> {B} /\\ {C}) -> {A} -> {C}",
    "({A} \\/ {B} -> {C}) -> {A} -> {C}",
    "{A} /\\ ({A} -> {B}) -> {B}",
)


def _formula(rng: random.Random, depth: int, atoms: tuple[str, ...]) -> str:
    if depth <= 0 or rng.random() < 0.3:
        return rng.choice(atoms)
    op = rng.choice(["/\\", "\\/", "->"])
    return f"({_formula(rng, depth - 1, atoms)} {op} {_formula(rng, depth - 1, atoms)})"


def _tautology(rng: random.Random, d: int, atoms: tuple[str, ...]) -> str:
    schema = rng.choice(_SCHEMAS)
    subs = {k: _formula(rng, d - 1, atoms) for k in "ABC"}
    return schema.format(**subs)


def taut(rng: random.Random, d: int) -> tuple[str, str, str]:
    atoms = ATOMS[: min(len(ATOMS), d + 1)]
    return "", f": forall {' '.join(atoms)} : Prop, {_tautology(rng, d, atoms)}", "tauto."


def conj(rng: random.Random, d: int) -> tuple[str, str, str]:
    atoms = ATOMS[:2]
    names = list(VARS[:2])
    parts: list[tuple[str, str]] = []
    kinds = ["taut", "lin"] if rng.random() < 0.5 else ["lin", "taut"]
    if d >= 3:
        kinds.append(rng.choice(["taut", "lin"]))
    for kind in kinds:
        if kind == "taut":
            parts.append((f"({_tautology(rng, max(1, d - 1), atoms)})", "tauto."))
        else:
            a = [rng.randint(0, 3) for _ in names]
            e = rng.randint(0, 5)
            parts.append((f"{_lin(a, names, 0)} <= {_lin(a, names, e)}", "lia."))
    # /\ is right-associative: p1 /\ p2 /\ p3; script: split. t1. split. t2. t3.
    stmt = " /\\ ".join(p for p, _ in parts)
    ordered: list[str] = []
    for i, (_, tac) in enumerate(parts):
        ordered += ["split.", tac] if i < len(parts) - 1 else [tac]
    binders = f"({' '.join(atoms)} : Prop) ({' '.join(names)} : nat)"
    return LIA, f"{binders} : {stmt}", " ".join(ordered)


FAMILIES: dict[str, Callable[[random.Random, int], tuple[str, str, str]]] = {
    "eval_nat": eval_nat,
    "lin_nat": lin_nat,
    "lin_z": lin_z,
    "ring_q": ring_q,
    "taut": taut,
    "conj": conj,
}

HELDOUT_BUCKETS = 8


def split_of(family: str, statement: str) -> str:
    h = hashlib.sha256(f"{family}\0{statement}".encode()).digest()
    return "heldout" if h[0] % HELDOUT_BUCKETS == 0 else "train"


def _stream(families: tuple[str, ...], max_difficulty: int, seed: int) -> Iterator[Problem]:
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        raise ValueError(f"unknown curriculum families: {', '.join(unknown)} (known: {', '.join(FAMILIES)})")
    rng = random.Random(seed)
    seen: set[tuple[str, str]] = set()
    i = 0
    while True:
        for family in families:
            for d in range(1, max_difficulty + 1):
                header, statement, witness = FAMILIES[family](rng, d)
                key = (family, statement)
                if key in seen:
                    continue
                seen.add(key)
                i += 1
                digest = hashlib.sha256(f"{family}\0{statement}".encode()).hexdigest()[:10]
                yield Problem(
                    id=f"{family}-d{d}-{digest}",
                    family=family,
                    difficulty=d,
                    split=split_of(family, statement),
                    header=header,
                    name=f"{family}_{digest}",
                    statement=statement,
                    witness=witness,
                )


def generate(
    families: tuple[str, ...],
    max_difficulty: int,
    train_size: int,
    heldout_size: int,
    seed: int = 0,
    max_draws: int = 200_000,
) -> tuple[list[Problem], list[Problem]]:
    """Deterministic (train, heldout) lists, balanced over families and difficulties."""
    train: list[Problem] = []
    held: list[Problem] = []
    for n, p in enumerate(_stream(tuple(families), max_difficulty, seed)):
        if p.split == "train" and len(train) < train_size:
            train.append(p)
        elif p.split == "heldout" and len(held) < heldout_size:
            held.append(p)
        if len(train) >= train_size and len(held) >= heldout_size:
            break
        if n >= max_draws:
            raise ValueError("curriculum: could not draw enough distinct problems; lower the sizes")
    return train, held


_THEOREM = r"(?:Theorem|Lemma)\s+{name}\b(.*?)\.\s*Proof\."


def minif2f_problems(split: str = "valid", data_dir: str | None = None) -> tuple[list[Problem], list[Problem]]:
    """miniF2F Rocq problems of ``split`` (only ``valid``: the development split) as curriculum
    problems of family ``minif2f``, divided into (train, heldout) by the same statement hash.

    ``header`` is everything the file has before the theorem (imports, scopes, definitions),
    ``statement`` the text between the theorem's name and the period before ``Proof.``; the
    verdict then compares candidates against this reconstruction. ``witness`` is empty (no
    known proof). Files whose theorem cannot be read this way are skipped. Test splits are
    refused: they are reported, never trained on."""
    import re

    from benchmarks.suites import get_suite

    if split != "valid":
        raise ValueError(f"miniF2F {split!r} is not a training split: only 'valid' may be trained on")
    train: list[Problem] = []
    held: list[Problem] = []
    for bp in get_suite("minif2f-rocq", data_dir, split="valid").load():
        name = bp.theorem or bp.name
        m = re.search(_THEOREM.format(name=re.escape(name)), bp.text, re.DOTALL)
        if m is None:
            continue
        statement = " ".join(m.group(1).split())
        p = Problem(id=f"minif2f-{bp.name}", family="minif2f", difficulty=1, split=split_of("minif2f", statement),
                    header=bp.text[: m.start()].strip(), name=name, statement=statement, witness="")
        (held if p.split == "heldout" else train).append(p)
    return train, held
