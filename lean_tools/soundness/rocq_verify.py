"""The Rocq part of the verdict: compile, compare the elaborated statement, read the axioms.

Steps (after the static screens passed):
1. ``Candidate.v`` = the candidate text with one probe inserted where the final helper run
   begins (right after the problem's last unchanged sentence before the theorem; helper runs the
   candidate placed between the problem's own sentences come before it and are restricted by
   ``candidate`` rule 3: no ``Require``, no name the later problem text uses):
   ``Lemma __prover_reference <problem statement text>. Admitted.`` The candidate may not
   mention ``__prover`` (screen ``rocq.reserved``), and the probe is ``Admitted`` so it can
   never serve as a proof (it would show up in ``Print Assumptions``).
2. ``coqc`` compiles it in a fresh sandboxed process (``compile_and_query``).
3. A SEPARATE ``coqc`` compiles ``Query.v``, which only ``Require``s the compiled module and
   then (a) checks ``constr_eq`` between the types of ``Candidate.__prover_reference`` and
   ``Candidate.<theorem>`` and (b) runs ``Print Assumptions Candidate.<theorem>``, each
   answer framed by markers carrying a random nonce.

Why the statement check is ``constr_eq`` on a probe elaborated in the same module, not a
comparison against a separately compiled problem module: the probe is elaborated in exactly
the problem's environment (same header, same preamble, nothing of the candidate's yet), so
it IS the problem's statement; ``constr_eq`` then demands the target's type be the same term
up to alpha-renaming (de Bruijn indices) - not merely convertible - so a helper that shadows a
name, adds a coercion/instance/canonical structure, or a notation that survived the screens
changes the elaborated term and is caught. Both constants are named with ``@`` so that no
implicit argument is inserted: ``type of p`` for ``p {A : Type} ...`` would elaborate ``@p ?A`` with a
fresh evar each time, and every statement with a maximal implicit argument would differ. A separate problem module cannot do this for the
many problem files with top-level ``Variable``s (``Variable R : realType.``): those are
distinct constants in two modules, so even an honest candidate's type would differ.
Targets inside a problem's own ``Section``: at ``End`` the ``Admitted`` probe is generalised
over EVERY section variable, while a proved theorem is generalised over the ones its proof uses,
so a correct proof that leaves a section hypothesis unused got a different type and was rejected.
When the target sits in an open section, the module therefore gets ``Set Default Proof Using
"All".`` right after the probe: the target is then generalised like the probe (a candidate's own
``Proof using ...`` or a later ``Set Default Proof Using`` still narrows it, and then fails
``constr_eq``: rejected, never wrongly accepted). Both types stay compared with ``constr_eq``, so
the discharged statement must still be exactly the problem's.

The query's output cannot be forged by the candidate: ``Print Assumptions`` text inside the
candidate (comments, strings, ``idtac``) is printed, if at all, by the first process, whose
output is only used for error messages.
"""

from __future__ import annotations

import re
import secrets

from ..rocq.checker import compile_and_query, parse_coq_messages
from ..rocq.parser import rocq_sentences
from ..sandbox import RunResult
from ..source import SourceFile, mask
from ..types import Severity
from .axioms import (
    entry_name,
    parse_print_assumptions,
    rocq_declared_parameters,
    rocq_unexpected,
)
from .candidate import CandidateSplit
from .verdict import Verdict, reject

MODULE = "Candidate"
PROBE = "__prover_reference"


def in_open_section(problem: SourceFile) -> bool:
    """Whether the problem's theorem sits inside a ``Section`` its own text opened (``Section X.``
    sentences before the theorem not closed by a matching ``End X.``)."""
    masked = mask(problem.text[: problem.decl_start], "rocq")
    stack: list[str] = []
    for sent in rocq_sentences(masked):
        words = masked[sent.start : sent.end].rstrip(".").split()
        if len(words) == 2 and words[0] == "Section":
            stack.append(words[1])
        elif len(words) == 2 and words[0] == "End" and stack and stack[-1] == words[1]:
            stack.pop()
    return bool(stack)


def build_candidate_module(problem: SourceFile, candidate_text: str, split: CandidateSplit) -> str:
    """The candidate text with the reference probe inserted at ``split.helpers_start`` (and, for a
    target inside the problem's open section, ``Set Default Proof Using "All".``: module docstring)."""
    probe = f"\nLemma {PROBE} {problem.statement}.\nAdmitted.\n"
    if in_open_section(problem):
        probe += 'Set Default Proof Using "All".\n'
    at = split.helpers_start
    return candidate_text[:at] + probe + candidate_text[at:]


def build_query(theorem: str, nonce: str, namespace: str = "") -> str:
    """The query module: Require only; statement identity; Print Assumptions; markers.

    ``namespace``: the Module path of the target inside the candidate ("" at top level).
    """
    q = f"Top.{MODULE}" + (f".{namespace}" if namespace else "")

    def mark(tag: str) -> str:
        return f'Goal True. idtac "@@{nonce}:{tag}@@". exact I. Qed.\n'

    return (
        f"Require Top.{MODULE}.\n"
        f"Goal True.\n"
        f"first [ (let a := type of @{q}.{PROBE} in let b := type of @{q}.{theorem} in constr_eq a b);\n"
        f'        idtac "@@{nonce}:SAME@@"\n'
        f'      | idtac "@@{nonce}:DIFFERENT@@" ].\n'
        f"exact I. Qed.\n" + mark("ASSUMPTIONS") + f"Print Assumptions {q}.{theorem}.\n" + mark("END")
    )


def _first_error(out: str, source: str | None, probe_at: int = 0, probe_lines: int = 0) -> str:
    """First error, its line mapped back to the candidate's own numbering (the probe adds lines)."""
    msgs = parse_coq_messages(out, source)
    errs = [m for m in msgs if m.severity is Severity.ERROR]
    if not errs:
        return out.strip().splitlines()[-1][:300] if out.strip() else "no message"
    m = errs[0]
    at = ""
    if m.pos:
        line = m.pos.line
        if probe_lines and line > probe_at + probe_lines:
            line -= probe_lines
        at = f"line {line}: "
    return at + " ".join(m.text.split())[:300]


def _compile_rejection(
    results: list[RunResult], module_text: str, candidate_text: str, split: CandidateSplit, name: str, timeout: float
) -> Verdict | None:
    """The rejection when compiling the candidate module failed (or the query step did not run)."""
    comp = results[0]
    if comp.timed_out:
        return reject("compile", f"coqc timed out after {timeout:.0f} s", "rocq", name)
    if comp.returncode != 0:
        probe_at = candidate_text.count("\n", 0, split.helpers_start)
        probe_lines = module_text.count("\n") - candidate_text.count("\n")
        err = _first_error(comp.stdout + "\n" + comp.stderr, module_text, probe_at, probe_lines)
        return reject("compile", f"coqc rejected the candidate: {err}", "rocq", name)
    if len(results) < 2:
        return reject("compile", "query step did not run", "rocq", name)
    return None


def _query_verdict(problem: SourceFile, q: RunResult, nonce: str, assumed: frozenset[str] = frozenset()) -> Verdict:
    """The verdict from the query step: the ``constr_eq`` statement check, then the assumptions."""
    name = problem.theorem_name
    out = q.stdout
    if q.timed_out or q.returncode != 0:
        err = _first_error(q.stdout + "\n" + q.stderr, None)
        return reject("statement", f"query on the compiled candidate failed: {err}", "rocq", name)
    if f"@@{nonce}:SAME@@" not in out:
        why = "different" if f"@@{nonce}:DIFFERENT@@" in out else "not comparable"
        return reject(
            "statement",
            f"the elaborated statement of {name} is {why} from the problem's (a helper or notation changed its meaning)",
            "rocq",
            name,
        )
    m = re.search(rf"@@{nonce}:ASSUMPTIONS@@\s*\n(?P<body>.*?)@@{nonce}:END@@", out, re.DOTALL)
    report = parse_print_assumptions(m.group("body")) if m else None
    if report is None:
        return reject("axioms", "could not read Print Assumptions output", "rocq", name, output=out[-2000:])
    masked = mask(problem.text[: problem.decl_start], "rocq")
    params = rocq_declared_parameters([masked[s.start : s.end] for s in rocq_sentences(masked)])
    bad = [e for e in rocq_unexpected(report, MODULE, params | assumed) if not _assumed_elsewhere(entry_name(e), assumed)]
    axioms = [entry_name(e) or e for e in report.entries]
    if bad:
        return reject(
            "axioms",
            f"{name} depends on non-whitelisted assumptions: {'; '.join(bad)[:400]}",
            "rocq",
            name,
            axioms=list(report.entries),
        )
    return Verdict(
        accepted=True,
        reason=f"{name} proved; assumptions: {', '.join(axioms) if axioms else 'none'}"[:500],
        stage="accepted",
        language="rocq",
        theorem=name,
        details={"axioms": axioms},
    )


def _assumed_elsewhere(name: str | None, assumed: frozenset[str]) -> bool:
    """Whether a printed assumption is one of the ``assumed`` lemmas given by their full logical
    name (an admitted lemma of another file of the project, printed as ``File.lemma``)."""
    return name is not None and any("." in a and (a == name or a.endswith("." + name)) for a in assumed)


def verify_rocq(
    problem: SourceFile,
    candidate_text: str,
    split: CandidateSplit,
    *,
    timeout: float = 120.0,
    assumed: frozenset[str] = frozenset(),
) -> Verdict:
    """Compile and query. Raises ``NotInstalled`` when coqc is missing. ``assumed``: admitted
    lemmas of the problem text the proof may rest on (``verify``)."""
    name = problem.theorem_name
    module_text = build_candidate_module(problem, candidate_text, split)
    nonce = secrets.token_hex(8)
    results = compile_and_query(
        {
            f"{MODULE}.v": module_text,
            "Query.v": build_query(name, nonce, problem.namespace),
        },
        [f"{MODULE}.v", "Query.v"],
        timeout=timeout,
    )
    rejected = _compile_rejection(results, module_text, candidate_text, split, name, timeout)
    v = rejected or _query_verdict(problem, results[1], nonce, assumed)
    cpu = sum(r.cpu_seconds for r in results)
    wall = sum(r.wall_seconds for r in results)
    return v.model_copy(update={"cpu_seconds": cpu, "wall_seconds": wall})
