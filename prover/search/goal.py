"""Goal reading, in one place: a printed goal split into hypotheses and conclusion
(``parse_goal``), the number domains in sight (``rocq_domain``), what the problem's header
tells beyond the goal (``ProblemContext``), and the record every family returns (``Candidate``).

What is covered: Rocq's ``h : T`` lines above a ``=====`` rule and Lean's ``⊢`` separator;
domains guessed from type names, casts, scope suffixes and the header's open scope.
Limits: parsing is line based and heuristic. A misparsed goal only costs a few useless
candidates, never a wrong proof: every proof is re-checked by a fresh checker.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from lean_tools.rocq.project import project_definitions, project_sources

Kind = Literal["close", "step"]


class Quotients(BaseModel):
    """A step wrote ``x`` and ``y`` as multiples of their gcd (``x = v * ql``): ``names`` are the
    quotient variables it introduced, new unknowns the bounded case splits may enumerate."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["quotients"] = "quotients"
    names: tuple[str, ...]


class ClosedForm(BaseModel):
    """A step proved the closed form of ``sequence`` and instantiated it: not worth doing twice."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["closed-form"] = "closed-form"
    sequence: str


class InductionHypotheses(BaseModel):
    """A step ran an induction: ``names`` are its induction hypotheses' names (Rocq appends a
    digit when a name is taken, ``IHn0``), which the rewriting families may use."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["induction"] = "induction"
    names: tuple[str, ...]


Fact = Annotated[Quotients | ClosedForm | InductionHypotheses, Field(discriminator="kind")]
"""What one family tells the others about the goals its candidate leaves: carried by the
candidate, accumulated along the search path, read by later families (never a hypothesis-name
convention)."""


class Candidate(BaseModel):
    """One tactic to try: ``tactic`` is the bare tactic text (no timeout wrapper, no final period)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tactic: str
    kind: Kind
    timeout: float = 2.0
    """Seconds the proof assistant may spend on it."""
    cost: float = 1.0
    """Prior cost added to a child's priority (lower is tried first)."""
    tag: str = ""
    """Family name used in statistics (``lia``, ``nra-hint``, ``rewrite-def`` ...)."""
    prelude: str = ""
    """Sentences run unwrapped before the tactic (Rocq: a ``Require`` the tactic needs)."""
    runner: Literal["tactic", "hammer", "replay"] = "tactic"
    """``hammer``: run CoqHammer on the state instead (``hammer.py``), the proof keeps its
    reconstruction; ``replay``: ``tactic`` is such a reconstruction, run as a whole sentence."""
    facts: tuple[Fact, ...] = ()
    """What the goals this candidate leaves are known to hold (``Fact``), for later families."""


@dataclass(frozen=True)
class Hyp:
    names: tuple[str, ...]
    type: str


@dataclass(frozen=True)
class GoalInfo:
    """A focused goal, as far as text can tell."""

    hyps: tuple[Hyp, ...]
    concl: str
    others: int = 0
    """Number of further goals after the focused one."""
    text: str = ""

    def vars_of(self, *types: str) -> list[str]:
        return [n for h in self.hyps if h.type.strip() in types for n in h.names]

    def hyp_names(self) -> list[str]:
        return [n for h in self.hyps for n in h.names]

    @property
    def all_text(self) -> str:
        return "\n".join(h.type for h in self.hyps) + "\n" + self.concl


_HYP_LINE = re.compile(r"^ {0,2}(?P<names>[^\s:,][^:]*?)\s*:\s(?P<type>.*)$")
NAME = re.compile(r"^[A-Za-z_\u0370-\u03ff\u2080-\u209c'][\w'\u2080-\u209c\u0370-\u03ff]*$")


def parse_goal(text: str, language: str, others: int = 0) -> GoalInfo:
    """Split a printed goal into hypotheses and conclusion.

    Rocq prints ``h : T`` lines, then a ``=====`` rule, then the conclusion; Lean prints
    ``h : T`` lines then ``⊢ conclusion``. A hypothesis type may continue on more-indented lines.
    Text that has neither separator is treated as a bare conclusion.
    """
    lines = text.replace("\r", "").split("\n")
    sep = None
    for i, line in enumerate(lines):
        s = line.strip()
        if language == "rocq" and s.startswith("====="):
            sep = i
            break
        if language == "lean" and s.startswith("⊢"):
            sep = i
            break
    if sep is None:
        return GoalInfo(hyps=(), concl=text.strip(), others=others, text=text)
    if language == "rocq":
        concl = "\n".join(lines[sep + 1 :]).strip()
    else:
        concl = (lines[sep].strip()[1:] + "\n" + "\n".join(lines[sep + 1 :])).strip()
    hyps: list[Hyp] = []
    for line in lines[:sep]:
        if not line.strip() or re.match(r"^\d+ goals?", line.strip()):
            continue
        m = _HYP_LINE.match(line) if not line.startswith("    ") else None
        if m:
            names = tuple(n for n in re.split(r"[,\s]+", m.group("names")) if n)
            if names and all(NAME.match(n) for n in names):
                hyps.append(Hyp(names=names, type=m.group("type").strip()))
                continue
        if hyps:  # continuation of the previous hypothesis' type
            last = hyps.pop()
            hyps.append(Hyp(names=last.names, type=last.type + " " + line.strip()))
    return GoalInfo(hyps=tuple(hyps), concl=concl, others=others, text=text)


@dataclass
class Domain:
    real: bool = False
    integer: bool = False
    natural: bool = False
    transcendental: bool = False
    division: bool = False
    closed: bool = False
    """No variables in sight: a computation may decide it."""
    flags: set[str] = field(default_factory=set)


_REAL_FUN = re.compile(r"\b(sqrt|ln|exp|Rpower|cos|sin|tan|PI|Rabs|powerRZ|atan|Rsqr)\b")


def rocq_domain(g: GoalInfo, scope: str = "") -> Domain:
    """Number domains in sight. ``scope`` is the header's open scope (``R_scope``, ``Z_scope``):
    a closed goal such as ``1/2 + 1/3 = 5/6`` carries no other sign of being about reals."""
    d = Domain()
    types = " ".join(h.type for h in g.hyps)
    text = g.all_text
    d.real = bool(re.search(r"\bR\b|\bINR\b|\bIZR\b|%R|\bRabs\b|\bsqrt\b|\bRpower\b", text + " " + types))
    d.integer = bool(re.search(r"\bZ\b|%Z|\bZ\.\w+", text))
    if scope == "C_scope":
        d.flags.add("C")
    d.real = d.real or (scope in ("R_scope", "C_scope") and not d.integer)
    d.integer = d.integer or (scope == "Z_scope" and not d.real)
    d.natural = bool(re.search(r"\bnat\b|%nat|\bNat\.\w+|\bS\b", text)) or not (d.real or d.integer)
    d.transcendental = bool(_REAL_FUN.search(text))
    d.division = bool(re.search(r"/(?!\\)", text.replace("\\/", "")))
    d.closed = not g.hyps
    return d


def open_scope(header: str) -> str:
    """The last ``Open Scope X_scope`` of a Rocq header ("" when none)."""
    found = re.findall(r"Open\s+Scope\s+(\w+)\s*\.", header)
    return found[-1] if found else ""



@dataclass(frozen=True)
class Fixpoint:
    """A ``Fixpoint`` of the header: its name and how many constructors deep its patterns go."""

    name: str
    depth: int
    conditional: bool = field(default=False, compare=False)
    """Its body branches on a test (``if Nat.eqb x y then ... else ...``): after it computes, the
    goal has a condition to split on."""


def header_inductives(header: str) -> tuple[str, ...]:
    """Names of the ``Inductive`` types the header declares (``Inductive bt : Type := ...``)."""
    return tuple(dict.fromkeys(re.findall(r"(?:^|\n)\s*Inductive\s+([A-Za-z_][\w']*)", header)))


def header_predicates(header: str) -> tuple[str, ...]:
    """Names of the header's inductive predicates: ``Inductive`` declarations whose arity ends in
    ``Prop`` (``Inductive ev : nat -> Prop := ...``), the ones ``induction H`` runs over."""
    found = re.findall(r"(?:^|\n)\s*Inductive\s+([A-Za-z_][\w']*)([^:=]*):([^=]*?)\bProp\s*:=", header)
    return tuple(dict.fromkeys(name for name, _params, _arity in found))


def header_fixpoints(header: str) -> tuple[Fixpoint, ...]:
    """The header's ``Fixpoint``s with their pattern depth: ``S (S m)`` or ``x :: y :: r`` is 2."""
    out = []
    parts = re.split(r"(?:^|\n)\s*(?=Fixpoint\s)", header)
    for part in parts:
        m = re.match(r"Fixpoint\s+([A-Za-z_][\w']*)", part)
        if not m:
            continue
        body = part.split(".\n")[0]
        depth = 1
        if re.search(r"\|\s*S\s*\(\s*S\b", body) or re.search(r"\|\s*\w+\s*::\s*\w+\s*::", body):
            depth = 2
        # the second step written as a nested match: `| S k => match k with ... | S j => ...`
        if re.search(r"\|\s*(?:S\s+|\w+\s*::\s*)(\w+)\s*=>\s*match\s+\1\s+with", body):
            depth = 2
        out.append(Fixpoint(m.group(1), depth, conditional=bool(re.search(r"\bif\b[\s\S]*\bthen\b", body))))
    return tuple(out)


_EQUATION_LEMMA = re.compile(
    r"(?:^|(?<=\.))\s*(?:Lemma|Theorem|Fact|Remark|Corollary|Proposition)\s+([A-Za-z_][\w']*)([^.]*?):(?P<stmt>[^.]*?)\.(?=\s)",
    re.S,
)


def equation_lemmas(text: str) -> list[tuple[str, str]]:
    """(name, statement) of each lemma of ``text`` (comments already removed) that states an
    unconditional equation (``Lemma sum_app : forall l m, sum (l ++ m) = sum l + sum m.``), in
    order; a statement with ``->``, ``<->``, ``/\\``, ``\\/``, ``<>`` or an order is not one."""
    out = []
    for m in _EQUATION_LEMMA.finditer(text):
        stmt = m.group("stmt")
        body = re.sub(r"^\s*forall\b[^,]*,", "", stmt.strip())
        if body.count("=") == 1 and not re.search(r"->|<->|/\\|\\/|<>|<=|>=", body):
            out.append((m.group(1), stmt))
    return out


def conclusion_head(statement: str) -> str:
    """The head symbol of a statement's conclusion: after its ``forall``s and premises
    (``forall l, P l -> ev (sum l)`` -> ``ev``); "" when it starts with no name."""
    body = re.sub(r"^\s*forall\b[^,]*,", "", statement.strip())
    body = re.split(r"(?<!<)->", body)[-1].strip().lstrip("(~ ")
    m = re.match(r"[A-Za-z_][\w'.]*", body)
    return m.group(0) if m else ""


@functools.lru_cache(maxsize=512)
def _admitted(text: str) -> frozenset[str]:
    """Names of the lemmas ``text`` leaves ``Admitted`` (a proof through one is no proof).
    Cached: every session of a search reads the same header and project files again."""
    from lean_tools.rocq.holes import find_holes

    try:
        return frozenset(h.name for h in find_holes(text) if h.admitted_lemma)
    except ValueError:
        return frozenset()


def header_lemmas(header: str, keep: int = 12) -> tuple[tuple[str, str], ...]:
    """(name, conclusion head) of the header's own proved lemmas, nearest last, at most ``keep``:
    premises an earlier part of the file proved for the goal at hand (admitted ones are left out)."""
    from lean_tools.source import strip_comments

    skip = _admitted(header)
    found = [(m.group(1), conclusion_head(m.group("stmt"))) for m in _EQUATION_LEMMA.finditer(strip_comments(header, "rocq"))]
    return tuple((n, h) for n, h in found if h and n not in skip)[-keep:]


def header_equations(header: str, keep: int = 8) -> tuple[str, ...]:
    """Names of the header's own equational lemmas (``equation_lemmas``), nearest last, at most
    ``keep``: rewrite rules for the steps of an induction, as the library's equations are."""
    from lean_tools.source import strip_comments

    skip = _admitted(header)
    return tuple(dict.fromkeys(name for name, _ in equation_lemmas(strip_comments(header, "rocq")) if name not in skip))[-keep:]


def project_equations(statement: str, keep: int = 8) -> tuple[str, ...]:
    """Equational lemmas of the active Rocq project's own files (``project_sources``) that speak
    of a name the statement uses (its functions), at most ``keep``."""
    words = set(re.findall(r"[A-Za-z_][\w']*", statement)) - {"forall", "exists", "fun", "nat", "Z", "R", "list", "Prop"}
    found = []
    for text in project_sources():
        skip = _admitted(text)
        found += [n for n, stmt in equation_lemmas(text) if n not in skip and words & set(re.findall(r"[A-Za-z_][\w']*", stmt))]
    return tuple(dict.fromkeys(found))[:keep]


@dataclass(frozen=True)
class ProblemContext:
    """What the search knows about the problem beyond the goal text."""

    local_defs: tuple[str, ...] = ()
    """Names the header defines, then those the active Rocq project's own files define
    (``lean_tools.rocq.project.project_definitions``): unfold candidates."""
    scope: str = ""
    """The header's open scope (Rocq), e.g. ``R_scope``."""
    big_numbers: tuple[str, ...] = ()
    """Numerals >= 5000 in the statement: Rocq prints them in ``nat`` as ``of_num_uint`` terms."""
    inductives: tuple[str, ...] = ()
    """``Inductive`` types the header declares (induction candidates, ``induction.py``)."""
    fixpoints: tuple[Fixpoint, ...] = ()
    """The header's ``Fixpoint``s with their recursion depth."""
    predicates: tuple[str, ...] = ()
    """The header's inductive predicates (``Inductive ev : nat -> Prop``): ``induction H`` on a
    hypothesis of one of them (``induction-pred``)."""
    lemmas: tuple[tuple[str, str], ...] = ()
    """The header's own lemmas with the head of their conclusion (``header_lemmas``), the
    preferred last: the nearest, or in a project the most relevant to the statement
    (``prover.premises.rank_context``)."""
    equations: tuple[str, ...] = ()
    """Equational lemmas of the file (``header_equations``) and of the active project's files that
    speak of the statement's functions (``project_equations``): rewrite rules. In a project the
    most relevant to the statement first (``prover.premises.rank_context``)."""
    absent_tactics: tuple[str, ...] = ()
    """Closing tactics the session does not know (``ring`` comes with ``Arith`` or ``Reals``,
    ``field`` with ``Reals``, neither with the table's imports): ``solve_any`` leaves them out,
    since one unknown name makes a whole ``solve [...]`` fail before it runs. The search probes
    them (``search.absent_tactics``); empty means every tactic is assumed known."""

    def knows(self, tactic: str) -> bool:
        """The session knows the tactic that ``tactic`` starts with."""
        return tactic.lstrip("( ").split(" ")[0].split(";")[0] not in self.absent_tactics

    @classmethod
    def of(cls, header: str, statement: str, language: str) -> ProblemContext:
        if language == "lean":
            defs = tuple(re.findall(r"^\s*(?:noncomputable\s+)?def\s+([A-Za-z_][\w'.]*)", header, re.MULTILINE))
            return cls(local_defs=defs)
        defs = tuple(re.findall(r"^\s*(?:Definition|Fixpoint|Let)\s+([A-Za-z_][\w']*)", header, re.MULTILINE))
        defs = tuple(dict.fromkeys(defs + project_definitions()))
        big = tuple(sorted({n for n in re.findall(r"(?<![\w.])(\d{4,})(?![\w.])", statement) if int(n) >= 5000}))
        ctx = cls(
            local_defs=defs,
            scope=open_scope(header),
            big_numbers=big,
            inductives=header_inductives(header),
            fixpoints=header_fixpoints(header),
            predicates=header_predicates(header),
            equations=tuple(dict.fromkeys(header_equations(header) + project_equations(statement))),
            lemmas=header_lemmas(header),
        )
        from ..premises import rank_context  # in a project: the most relevant to the statement first

        return rank_context(ctx, header, statement)


def solve_any(ctx: ProblemContext, tactics: tuple[str, ...] | list[str]) -> str:
    """``solve [t1 | t2 | ...]`` over the tactics the session knows (``ProblemContext.knows``)."""
    return "solve [" + " | ".join(t for t in tactics if ctx.knows(t)) + "]"


# --- reading terms of the goal (shared by the families) ------------------------------------

def is_eq(t: str) -> bool:
    return bool(re.search(r"(?<![<>:])=(?![>])", t)) and "<>" not in t and "<=" not in t and ">=" not in t


def leading_arg(rest: str) -> str | None:
    """The function argument at the start of ``rest``: a parenthesised group or a word."""
    if rest.startswith("("):
        depth = 0
        for j, ch in enumerate(rest):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                return rest[: j + 1]
        return None
    w = re.match(r"[\w'.]+", rest)
    return w.group(0) if w else None


def operand_before(text: str, end: int) -> str | None:
    """The operand ending just before ``text[end]``: a parenthesised group or a word/number."""
    i = end
    while i > 0 and text[i - 1] == " ":
        i -= 1
    if i > 0 and text[i - 1] == ")":
        depth, j = 0, i - 1
        while j >= 0:
            depth += {")": 1, "(": -1}.get(text[j], 0)
            if depth == 0:
                return text[j:i]
            j -= 1
        return None
    m = re.search(r"[\w'.]+$", text[:i])
    return m.group(0) if m else None


def args_of(g: GoalInfo, functions: str) -> list[str]:
    """The distinct arguments the goal applies the named functions to (``sin|cos``)."""
    text = " ".join(g.all_text.split())
    args: list[str] = []
    for m in re.finditer(rf"\b(?:{functions})\s+", text):
        arg = leading_arg(text[m.end() :])
        if arg and arg not in args:
            args.append(arg)
    return args


def eval_numeral(expr: str):
    """Exact value of a closed ``+ - * / ^`` numeral expression, or None."""
    import ast
    from fractions import Fraction

    if not re.fullmatch(r"[\d\s+\-*/^().]+", expr):
        return None
    try:
        tree = ast.parse(expr.replace("^", "**"), mode="eval")
    except SyntaxError:
        return None

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return Fraction(n.value)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            if isinstance(n.op, ast.Add):
                return a + b
            if isinstance(n.op, ast.Sub):
                return a - b
            if isinstance(n.op, ast.Mult):
                return a * b
            if isinstance(n.op, ast.Div) and b != 0:
                return a / b
            if isinstance(n.op, ast.Pow) and b.denominator == 1 and 0 <= b <= 64:
                return a ** int(b)
        raise ValueError

    try:
        return ev(tree)
    except (ValueError, ZeroDivisionError, RecursionError):
        return None


def int_root(n: int, k: int) -> int:
    """``floor(n ** (1 / k))`` in integers (a float root is wrong for large ``n``)."""
    r = round(n ** (1.0 / k))
    while r**k > n:
        r -= 1
    while (r + 1) ** k <= n:
        r += 1
    return r


def int_of(text: str) -> int:
    return int(text.replace("(", "").replace(")", "").replace(" ", ""))


_BOUND = re.compile(r"^(?P<v>[A-Za-z_]\w*)\s*(?P<op><=|<)\s*(?P<k>\d+)$|^(?P<k2>\d+)\s*(?P<op2>>=|>)\s*(?P<v2>[A-Za-z_]\w*)$")


def small_bounds(g: GoalInfo, limit: int = 100) -> list[tuple[str, int]]:
    nats = set(g.vars_of("nat"))
    out = []
    for h in g.hyps:
        m = _BOUND.match(h.type.strip())
        if not m:
            continue
        v = m.group("v") or m.group("v2")
        k = int(m.group("k") or m.group("k2"))
        strict = (m.group("op") or m.group("op2")) in ("<", ">")
        top = k - 1 if strict else k
        if v in nats and 0 <= top <= limit:
            out.append((v, top))
    return out


_INT = r"\(?-?\s*\d+\)?"


_LOWER = [
    re.compile(rf"^(?P<k>{_INT})\s*(?P<op><=|<)\s*(?P<v>[A-Za-z_]\w*)$"),
    re.compile(rf"^(?P<v>[A-Za-z_]\w*)\s*(?P<op>>=|>)\s*(?P<k>{_INT})$"),
]


_UPPER = [
    re.compile(rf"^(?P<v>[A-Za-z_]\w*)\s*(?P<op><=|<)\s*(?P<k>{_INT})$"),
    re.compile(rf"^(?P<k>{_INT})\s*(?P<op>>=|>)\s*(?P<v>[A-Za-z_]\w*)$"),
]


def int_ranges(g: GoalInfo, width: int = 40) -> list[tuple[str, int, int]]:
    """``(v, lo, hi)`` for ``Z`` variables bounded on both sides by numerals in the hypotheses
    (``0 < x``, ``x <= 9``, ``1 <= x <= 9``), with at most ``width`` values in between."""
    zs = set(g.vars_of("Z"))
    lo: dict[str, int] = {}
    hi: dict[str, int] = {}
    facts = []
    for h in g.hyps:
        t = " ".join(h.type.split()).replace("%Z", "")
        m = re.fullmatch(rf"({_INT})\s*(<=|<)\s*([A-Za-z_]\w*)\s*(<=|<)\s*({_INT})", t)
        if m:
            facts += [f"{m.group(1)} {m.group(2)} {m.group(3)}", f"{m.group(3)} {m.group(4)} {m.group(5)}"]
        else:
            facts += [part.strip() for part in t.split("/\\")]
    for f in facts:
        for pat in _LOWER:
            m = pat.match(f)
            if m and m.group("v") in zs:
                k = int_of(m.group("k")) + (1 if m.group("op") in ("<", ">") else 0)
                lo[m.group("v")] = max(k, lo.get(m.group("v"), k))
        for pat in _UPPER:
            m = pat.match(f)
            if m and m.group("v") in zs:
                k = int_of(m.group("k")) - (1 if m.group("op") in ("<", ">") else 0)
                hi[m.group("v")] = min(k, hi.get(m.group("v"), k))
    return [(v, lo[v], hi[v]) for v in lo if v in hi and 0 <= hi[v] - lo[v] < width]


FUN_DEF = re.compile(r"^forall\s+(?P<binders>[^,]*),\s*(?P<conds>(?:[^,]*?->\s*)*)(?P<f>[A-Za-z_]\w*)\s+[^=]*=")


def defined_function(hyp_type: str) -> str | None:
    """``f`` when the hypothesis reads ``forall x ..., f <args> = ...`` with ``f`` not bound."""
    m = FUN_DEF.match(hyp_type)
    if not m:
        return None
    bound = set(re.findall(r"[A-Za-z_]\w*", m.group("binders")))
    return None if m.group("f") in bound else m.group("f")


def equation_numeral_max(g: GoalInfo, top: int) -> int:
    """The largest numeral in ``2..top`` of an unquantified hypothesis equation (0 if none): the
    bound ``nia`` is asked to prove for a variable before a case split."""
    nums = [
        int(n)
        for h in g.hyps
        if "=" in h.type and "forall" not in h.type and "∀" not in h.type
        for n in re.findall(r"(?<![\w.])(\d+)(?![\w.])", h.type)
    ]
    return max([n for n in nums if 2 <= n <= top], default=0)


def stated(g: GoalInfo) -> str:
    """The conclusion and the unquantified hypotheses: where the indices of a sequence that a
    problem mentions stand (``a 1 = .. -> a 9 = .. -> a 5 = ..``)."""
    return g.concl + "\n" + "\n".join(t.type for t in g.hyps if "forall" not in t.type)


def positive_nats(g: GoalInfo, limit: int = 2) -> list[str]:
    """``nat`` variables known to be positive (``n <> 0``, ``0 < n``, ``1 <= n`` ...) that the
    conclusion uses where ``S n`` would compute: an exponent, ``fact``, ``n - 1``, a function
    argument. Writing ``n`` as ``S n`` lets ``simpl`` unfold one step (``4 ^ S n = 4 * 4 ^ n``)."""
    nats = [v for v in g.vars_of("nat") if NAME.match(v)]
    out: list[str] = []
    for h in g.hyps:
        typ = " ".join(h.type.replace("%nat", "").split()).strip("() ")
        m = re.fullmatch(r"([A-Za-z_]\w*) <> 0|0 <> ([A-Za-z_]\w*)", typ)
        v = (m.group(1) or m.group(2)) if m else None
        for pat in _LOWER:
            if v is None and (m := pat.match(typ)):
                k = int_of(m.group("k"))
                v = m.group("v") if k >= 1 or (k == 0 and m.group("op") in ("<", ">")) else None
        if v in nats and v not in out:
            ve = re.escape(v)
            if re.search(rf"\^\s*\(?{ve}\b|\bfact\s+\(?{ve}\b|\b{ve}\s*-\s*1\b|[A-Za-z_]\w*\s+\(?{ve}\b", g.concl):
                out.append(v)
    return out[:limit]
