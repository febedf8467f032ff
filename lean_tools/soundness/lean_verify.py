"""The Lean part of the verdict: compile, compare the elaborated statement, read the axioms.

NOT VERIFIED AGAINST A REAL LEAN by the default tests: it follows Lean 4's sources and
semantics, and only the ``lean``-marked tests run it on a toolchain. What IS verified without
Lean (tests/soundness/test_lean_statement.py): the generated Lean text (where the reference goes, the
query file, the nonce, name quoting), the parsing of the query's output (match, mismatch,
forged or duplicated lines, missing lines -> reject), and the whole Python flow against a
stand-in ``lake`` that prints canned ``lean --json`` lines. What is NOT verified: that the
query below compiles and behaves as intended on a given Lean version (``#eval`` of a
``CoreM`` action, ``ConstantInfo.instantiateTypeLevelParams``, ``collectAxioms``,
``Environment.getModuleIdx?``/``getModuleIdxFor?``, ``Expr`` ``==``, the do-notation used),
that ``lean -o`` + ``LEAN_PATH`` make ``import Candidate`` work (see ``lean_tools.lean.checker``),
and every claim below about how Lean elaborates. Any such failure shows as a rejection (the query yields no trustworthy answer), never as an
acceptance; the ``lean``-marked tests in tests/soundness/test_lean_dynamic.py check it.

Steps (after the static screens passed):
1. ``Candidate.lean`` = the candidate with a reference declaration inserted where the
   helpers begin, right after the problem's unchanged header and preamble:
   ``theorem <prefix>.__prover_reference_<nonce> <problem statement text> := sorry``.
   - ``<prefix>`` is the namespace part of the problem's declared name (``Foo`` for
     ``theorem Foo.bar``): Lean elaborates ``theorem Foo.bar`` inside ``namespace Foo``
     (``expandDeclNamespace?``), so the reference must too; ``_root_.`` is kept likewise.
   - When the preamble ends with command modifiers that apply to the theorem
     (``open Nat in``, ``set_option ... in``), the reference goes BEFORE them and gets its
     own copy (the problem's text), so both elaborate under them, and a helper the candidate
     wedges between them and the target (stealing the ``in``) shows up as a difference.
   - The random name keeps the candidate from naming or pre-declaring it; the leading
     ``_`` keeps it out of ``exact?``'s candidates (internal names are skipped). Its
     ``declaration uses 'sorry'`` warning is the only sorry warning ignored.
2. One sandboxed process compiles it to ``Candidate.olean`` (``LeanChecker.query_module``):
   errors or any other sorry warning reject,
   except one in the problem's own text (``problem_owned_lines``: another part of a multi-part
   problem left open), whose use by the target the axiom check sees (``sorryAx``).
3. A SEPARATE process elaborates ``Query.lean``: ``import Candidate`` and one ``#eval`` of
   our own ``CoreM`` code that looks both constants up by their full names, checks the
   target is a theorem, instantiates the target's universe parameters with the
   reference's (same count required) and compares the two types with ``==`` (``Expr.eqv``:
   equal up to binder names and binder info; NOT definitional equality); both constants
   must come from module ``Candidate``. Axioms of the target only (the reference's
   ``sorryAx`` never counts): the union of Lean's ``collectAxioms`` (what ``#print axioms``
   prints; recent versions read it from data the candidate's own build precomputed) and our
   own walk through every constant the target reaches inside module ``Candidate`` (library
   constants are not entered: Mathlib is trusted and may not expose proofs to importers),
   which does not depend on that data. It logs one message whose lines carry a fresh
   random nonce: ``@@<nonce>:STATEMENT:SAME@@``, ``@@<nonce>:AXIOMS:[a, b]@@``,
   ``@@<nonce>:END@@``. Only the query's output is searched for them; the candidate's own
   output (step 2) never is, and the candidate cannot know the nonce.
4. Accept iff exactly one STATEMENT line says SAME, exactly one AXIOMS line lists only
   ``propext``/``Classical.choice``/``Quot.sound``, END is present and the query has no error.

5. Candidates only the kernel can judge (``kernel_replay=True``, chosen by ``verify`` for
   metaprogramming and the like): a third process replays the compiled module through the
   kernel without running any of its code and must confirm the statement and the axioms
   (``kernel_replay``); acceptance needs both answers.

Why this catches meaning changes under identical text: the reference is elaborated in
exactly the problem's context (same header, preamble, ``in`` modifiers, namespace, options
such as ``autoImplicit``, and nothing of the candidate's), so it IS the problem's statement;
a helper that adds a notation, instance, coercion, scope or shadowing definition and changes
how the target's identical text elaborates produces a different ``Expr``.

Limits (all fail closed, i.e. reject): a ``private`` target (its name is mangled; refused
up front); an unnamed ``example``; statements whose elaboration creates auxiliary
declarations named after the theorem (``thm.match_1``) that Lean does not share between
the two (Lean reuses an identical matcher, so ``match`` usually works); a proof that finds
and uses the reference (``sorryAx``). Not covered: code the candidate runs at import time
(``initialize``; banned by the static screens) executes inside the query process and could
print forged lines after reading the query file; ``set_option debug.skipKernelTC``
(screened) would let the kernel skip the target's proof.
Raises ``NotInstalled`` when ``lake`` or the Lean project is missing.
"""

from __future__ import annotations

import re
import secrets

from ..source import SourceFile, mask, normalize
from ..types import FileCheck, Message, Severity
from .axioms import LEAN_AXIOMS
from .candidate import CandidateSplit, Span, align, locate, prefix_units
from .lean_terms import lean_name
from .verdict import Verdict, reject

REFERENCE = "__prover_reference"
_IN_UNIT = re.compile(
    r"^(?:open|set_option|variable|universe|include|omit|attribute|local|scoped|notation|export)(?![\w'.!?])"
    r"[\s\S]*(?<![\w'.!?])in\s*$"
)
_TAG = r"@@{nonce}:(?P<tag>STATEMENT|AXIOMS|END)(?::(?P<val>[^@\n]*))?@@"


# --- names ---------------------------------------------------------------------------------


def name_components(name: str) -> list[str]:
    """``Foo.«a b».c`` -> ``["Foo", "a b", "c"]`` (dots inside guillemets do not split)."""
    parts: list[str] = []
    cur, quoted = "", False
    for c in name:
        if c == "«" and not quoted:
            quoted = True
        elif c == "»" and quoted:
            quoted = False
        elif c == "." and not quoted:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    if quoted or any(p == "" for p in parts):
        raise ValueError(f"not a declaration name: {name!r}")
    return parts


def _declared_name(problem: SourceFile) -> tuple[str, str]:
    """(declared name without a trailing explicit-universe dot, that dot or "")."""
    name = problem.theorem_name
    if name.endswith("."):  # `theorem foo.{u} ...`: the parser stops the name at `{`
        return name[:-1], "."
    return name, ""


def reference_names(problem: SourceFile, nonce: str) -> tuple[str, list[str], list[str]]:
    """(reference name as declared, reference full name components, target full components).

    Declared name: the problem's declared name with its last component replaced, so a
    ``Foo.bar`` target (elaborated inside ``namespace Foo``) gets a ``Foo.`` reference.
    Full names: the enclosing ``namespace``s + the declared name; ``_root_.`` drops both.
    """
    declared, _dot = _declared_name(problem)
    comps = name_components(declared)
    ref_leaf = f"{REFERENCE}_{nonce}"
    ref_declared = ".".join([*(_quote(c) for c in comps[:-1]), ref_leaf])
    if comps[0] == "_root_":
        ns: list[str] = []
        comps = comps[1:]
    else:
        ns = name_components(problem.namespace) if problem.namespace else []
    return ref_declared, [*ns, *comps[:-1], ref_leaf], [*ns, *comps]


def _quote(component: str) -> str:
    return component if re.fullmatch(r"[^\W\d][\w'!?]*", component) else f"«{component}»"


# --- the candidate module --------------------------------------------------------------------


class ModuleText:
    """The compiled text and where the inserted lines are (1-based, inclusive)."""

    def __init__(self, text: str, first_line: int, n_lines: int, ref_line: int):
        self.text = text
        self.first_line = first_line
        self.n_lines = n_lines
        self.ref_line = ref_line
        """Line of the reference's ``theorem`` keyword."""

    def inserted(self, line: int) -> bool:
        return self.first_line <= line < self.first_line + self.n_lines

    def candidate_line(self, line: int) -> int:
        """A module line mapped back to the candidate's own numbering."""
        return line - self.n_lines if line >= self.first_line + self.n_lines else line


def _in_chain(text: str, end: int) -> list[Span]:
    """The trailing units of ``text[:end]`` that end with the keyword ``in`` (``open X in``)."""
    units = prefix_units(text, end, "lean")
    masked = mask(text[:end], "lean")
    chain: list[Span] = []
    for unit in reversed(units):
        if not _IN_UNIT.search(masked[unit.start : unit.end].strip()):
            break
        chain.insert(0, unit)
    return chain


def build_candidate_module(problem: SourceFile, candidate_text: str, helpers_start: int, nonce: str) -> ModuleText:
    """The candidate with the reference inserted before the helpers (see the module docstring)."""
    ref_declared, _, _ = reference_names(problem, nonce)
    _, dot = _declared_name(problem)
    p_chain = _in_chain(problem.text, problem.decl_start)
    chain_text = problem.text[p_chain[0].start : problem.decl_start] if p_chain else ""
    at = helpers_start
    if p_chain:
        # The candidate's copy of the chain ends at helpers_start (all of it when the static
        # rules passed; a first part of it when a helper was wedged inside the chain).
        c_chain = _in_chain(candidate_text, helpers_start)
        want = [normalize(problem.text[u.start : u.end], "lean") for u in p_chain]
        for j in range(min(len(c_chain), len(want)), 0, -1):
            if [normalize(candidate_text[u.start : u.end], "lean") for u in c_chain[-j:]] == want[:j]:
                at = c_chain[-j].start
                break
    if chain_text and not chain_text.endswith("\n"):
        chain_text += "\n"
    sep = "" if at == 0 or candidate_text[at - 1] == "\n" else "\n"
    ref = f"theorem {ref_declared}{dot}{'' if dot else ' '}{problem.statement} := sorry\n"
    inserted = sep + chain_text + ref
    first_line = candidate_text.count("\n", 0, at) + 1
    ref_line = first_line + (sep + chain_text).count("\n")
    return ModuleText(
        candidate_text[:at] + inserted + candidate_text[at:],
        first_line,
        inserted.count("\n"),
        ref_line,
    )


def build_query(ref_full: list[str], target_full: list[str], nonce: str) -> str:
    """``Query.lean``: import the candidate, compare the two types, collect the target's axioms.

    Axioms: the union of Lean's ``collectAxioms`` (in recent versions it reads data the
    candidate's own build precomputed; a failure of it is ignored) and our own walk through
    the constants the target reaches INSIDE module ``Candidate`` (so the walk does not depend
    on that data, and does not need library proofs, which a ``module`` library may not expose).
    """
    return f"""import Candidate

open Lean in
#eval show CoreM Unit from do
  let tag : String := "@@{nonce}"
  let refName : Name := {lean_name(ref_full)}
  let thmName : Name := {lean_name(target_full)}
  let env ← getEnv
  let candIdx := env.getModuleIdx? `Candidate
  let fromCandidate (n : Name) : Bool := candIdx.isSome && env.getModuleIdxFor? n == candIdx
  let verdict : String :=
    match env.find? refName, env.find? thmName with
    | none, _ => "MISSING_REFERENCE"
    | _, none => "MISSING_TARGET"
    | some r, some t =>
      if !(fromCandidate refName && fromCandidate thmName) then "NOT_IN_CANDIDATE"
      else
        match t with
        | ConstantInfo.thmInfo _ =>
          if r.levelParams.length != t.levelParams.length then "DIFFERENT_UNIVERSES"
          else if t.instantiateTypeLevelParams (r.levelParams.map Level.param) == r.type then "SAME"
          else "DIFFERENT"
        | _ => "NOT_A_THEOREM"
  let mut axs : Array Name := #[]
  try
    axs ← collectAxioms thmName
  catch _ =>
    pure ()
  let mut seen : NameSet := {{}}
  let mut todo : Array Name := #[thmName]
  while true do
    let some c := todo.back? | break
    todo := todo.pop
    if seen.contains c then continue
    seen := seen.insert c
    let some info := env.find? c | continue
    let isAxiom : Bool :=
      match info with
      | ConstantInfo.axiomInfo _ => true
      | _ => false
    if isAxiom then
      if !axs.contains c then axs := axs.push c
    else if fromCandidate c then
      let inner : Array Name :=
        match info with
        | ConstantInfo.defnInfo v => v.value.getUsedConstants
        | ConstantInfo.thmInfo v => v.value.getUsedConstants
        | ConstantInfo.opaqueInfo v => v.value.getUsedConstants
        | ConstantInfo.inductInfo v => v.ctors.toArray
        | _ => #[]
      todo := todo ++ info.type.getUsedConstants ++ inner
  let axText : String := ", ".intercalate (axs.toList.map toString)
  let msg : String :=
    tag ++ ":STATEMENT:" ++ verdict ++ "@@\\n" ++ tag ++ ":AXIOMS:[" ++ axText ++ "]@@\\n" ++ tag ++ ":END@@"
  logInfo m!"{{msg}}"
"""


# --- the query's answer ------------------------------------------------------------------------


class QueryAnswer:
    """What the query said; ``problem`` is set (one line) when there is no trustworthy answer."""

    def __init__(self, statement: str | None = None, axioms: tuple[str, ...] | None = None, problem: str = ""):
        self.statement = statement
        self.axioms = axioms
        self.problem = problem


def parse_query_output(check: FileCheck, nonce: str) -> QueryAnswer:
    """Read the nonce-tagged lines from the QUERY run only (never from the candidate's build).

    Searched: every message text and the non-JSON output tail. Exactly one STATEMENT, one
    AXIOMS and at least one END line are required; an error message or a duplicate rejects.
    """
    errors = [m for m in check.messages if m.severity is Severity.ERROR]
    if check.timed_out:
        return QueryAnswer(problem="the query timed out")
    if errors:
        return QueryAnswer(problem="the query failed: " + " ".join(errors[0].text.split())[:300])
    texts = [m.text for m in check.messages] + [check.stderr_tail]
    pat = re.compile(_TAG.format(nonce=re.escape(nonce)))
    found: dict[str, list[str]] = {"STATEMENT": [], "AXIOMS": [], "END": []}
    for t in texts:
        for m in pat.finditer(t):
            found[m.group("tag")].append((m.group("val") or "").strip())
    if not found["END"] or len(found["STATEMENT"]) != 1 or len(found["AXIOMS"]) != 1:
        counts = ", ".join(f"{k}={len(v)}" for k, v in found.items())
        return QueryAnswer(problem=f"no trustworthy query answer (tagged lines: {counts})")
    ax = found["AXIOMS"][0]
    if not (ax.startswith("[") and ax.endswith("]")):
        return QueryAnswer(problem=f"unreadable axiom list {ax[:100]!r}")
    axioms = tuple(a.strip() for a in ax[1:-1].split(",") if a.strip())
    return QueryAnswer(statement=found["STATEMENT"][0], axioms=axioms)


# --- the verdict -------------------------------------------------------------------------------


def _first_error(messages: tuple[Message, ...], module: ModuleText) -> str:
    errs = [m for m in messages if m.severity is Severity.ERROR]
    if not errs:
        return "no message"
    m = errs[0]
    where = ""
    if m.pos is not None:
        where = (
            "in the problem's statement (reference copy): "
            if module.inserted(m.pos.line)
            else f"line {module.candidate_line(m.pos.line)}: "
        )
    return where + " ".join(m.text.split())[:300]


def _cannot_check(problem: SourceFile) -> Verdict | None:
    """The rejection of a target the query cannot look up (unnamed ``example``, ``private``)."""
    name = problem.theorem_name
    if not name:
        return reject("candidate", "an unnamed `example` cannot be checked; name the theorem", "lean")
    if "private" in normalize(problem.decl_prefix, "lean").split():
        return reject("candidate", f"a private theorem ({name}) cannot be looked up for the check", "lean", name)
    return None


def problem_owned_lines(problem: SourceFile, candidate_text: str) -> tuple[tuple[int, int], ...]:
    """Candidate lines (1-based, inclusive ranges) that hold the problem's own text: its units
    before the target outside the helper runs, and what follows the target. A ``sorry`` there is
    the problem's (another part of a multi-part problem left open), not the candidate's; whether
    the target rests on it is the axiom check's question (``sorryAx``). Empty when the candidate
    does not align with the problem, and without the text after the target when that differs from
    the problem's (read-only commands added there included): then every ``sorry`` there counts."""
    from ..parsing import parse_source
    from ..source import ParseError

    try:
        cand = parse_source(candidate_text, "lean", theorem=problem.theorem_name)
    except ParseError:
        return ()
    al = align(problem, candidate_text, cand)
    if al.error:
        return ()

    def line(offset: int) -> int:
        return candidate_text.count("\n", 0, offset) + 1

    out, pos = [], 0
    for a, b in sorted([(r.start, r.end) for r in al.early] + [(al.helpers_start, al.helpers_end), (cand.decl_start, cand.decl_end)]):
        if a > pos:
            out.append((line(pos), line(a - 1)))
        pos = max(pos, b)
    if normalize(cand.suffix, "lean") == normalize(problem.suffix, "lean"):
        out.append((line(max(cand.decl_end - 1, cand.decl_start)) + 1, line(len(candidate_text)) + 1))
    return tuple(out)


def _build_rejection(
    b: FileCheck, module: ModuleText, name: str, timeout: float, owned: tuple[tuple[int, int], ...] = ()
) -> Verdict | None:
    """The rejection when the candidate module did not build cleanly (a ``sorry`` of its own
    included; one in ``owned``, the problem's own lines, is the problem's)."""
    if b.timed_out:
        return reject("compile", f"lean timed out after {timeout:.0f} s", "lean", name)
    if not b.ok:
        return reject("compile", f"lean rejected the candidate: {_first_error(b.messages, module)}", "lean", name)
    from ..lean import protocol as P

    def problems(line: int) -> bool:
        return module.inserted(line) or any(a <= module.candidate_line(line) <= z for a, z in owned)

    sorries = [m for m in b.messages if P.is_sorry_warning(m) and not (m.pos and problems(m.pos.line))]
    if sorries:
        line = module.candidate_line(sorries[0].pos.line) if sorries[0].pos else "?"
        return reject("compile", f"lean reports `declaration uses sorry` (line {line})", "lean", name)
    return None


_STATEMENT_ANSWERS = {
    "DIFFERENT": "different from the problem's (a helper, notation or instance changed its meaning)",
    "DIFFERENT_UNIVERSES": "different from the problem's (universe parameters differ)",
    "MISSING_TARGET": "missing (not found under its full name)",
    "MISSING_REFERENCE": "not comparable (the reference was not found)",
    "NOT_A_THEOREM": "not declared as a theorem",
    "NOT_IN_CANDIDATE": "not declared by the candidate module",
}


def _query_verdict(query: FileCheck | None, nonce: str, name: str) -> Verdict:
    """The verdict from the query run: the statement comparison, then the axioms."""
    if query is None:
        return reject("statement", "the query step did not run", "lean", name)
    ans = parse_query_output(query, nonce)
    if ans.problem:
        return reject("statement", ans.problem, "lean", name)
    if ans.statement != "SAME":
        why = _STATEMENT_ANSWERS.get(ans.statement or "", f"not confirmed ({ans.statement!r})")
        return reject("statement", f"the elaborated statement of {name} is {why}", "lean", name)
    axioms = ans.axioms or ()
    bad = [a for a in axioms if a not in LEAN_AXIOMS]
    if bad:
        return reject(
            "axioms",
            f"{name} depends on non-whitelisted axioms: {', '.join(bad)}",
            "lean",
            name,
            axioms=list(axioms),
        )
    return Verdict(
        accepted=True,
        reason=f"{name} proved; axioms: {', '.join(axioms) or 'none'}",
        stage="accepted",
        language="lean",
        theorem=name,
        details={"axioms": list(axioms)},
    )


def _with_replay(accepted: Verdict, replay: FileCheck | None, nonce: str, name: str) -> Verdict:
    """The query's acceptance, confirmed by the kernel replay (or its rejection)."""
    from .kernel_replay import replay_rejection

    rejected, ans = replay_rejection(replay, nonce, name)
    if rejected is not None or ans is None:
        return rejected or reject("kernel", "the kernel replay gave no answer", "lean", name)
    return accepted.model_copy(
        update={
            "reason": f"{accepted.reason}; kernel replay re-checked {ans.replayed} declarations",
            "details": {**accepted.details, "kernel_replay": ans.replayed},
        }
    )


def verify_lean(
    problem: SourceFile,
    candidate_text: str,
    split: CandidateSplit | None = None,
    *,
    timeout: float = 120.0,
    checker=None,
    nonce: str | None = None,
    kernel_replay: bool = False,
) -> Verdict:
    """Compile, compare statements, check axioms. ``split`` None: located here (lenient).

    ``kernel_replay``: also replay the compiled module through the kernel in a process that
    runs none of the candidate's code (``kernel_replay``); acceptance then needs both answers.
    ``checker``: a ``LeanChecker`` (tests pass one with a stand-in ``lake``); ``nonce``: for
    tests only. Raises ``NotInstalled`` when Lean is missing.
    """
    from ..lean import checker as lean_checker  # late: the Lean layer is optional

    name = problem.theorem_name
    unchecked = _cannot_check(problem)
    if unchecked is not None:
        return unchecked
    if split is None:
        cand, helpers_start, err = locate(problem, candidate_text, lenient=True)
        if cand is None:
            return reject("candidate", err or "candidate: unparsable", "lean", name)
    else:
        helpers_start = split.helpers_start
    nonce = nonce or secrets.token_hex(8)
    try:
        _, ref_full, target_full = reference_names(problem, nonce)
    except ValueError as e:
        return reject("candidate", str(e), "lean", name)
    module = build_candidate_module(problem, candidate_text, helpers_start, nonce)
    checker = checker or lean_checker.LeanChecker()
    replay = None
    if kernel_replay:
        from .kernel_replay import build_replay_program

        replay = build_replay_program(ref_full, target_full, nonce)
    mq = checker.query_module(module.text, build_query(ref_full, target_full, nonce), timeout=timeout, replay=replay)
    owned = problem_owned_lines(problem, candidate_text)
    v = _build_rejection(mq.build, module, name, timeout, owned) or _query_verdict(mq.query, nonce, name)
    if kernel_replay and v.accepted:
        v = _with_replay(v, mq.replay, nonce, name)
    runs = [r for r in (mq.build, mq.query, mq.replay) if r is not None]
    cpu = sum(r.cpu_seconds for r in runs)
    wall = sum(r.wall_seconds for r in runs)
    return v.model_copy(update={"cpu_seconds": cpu, "wall_seconds": wall})
