"""Turn a source file into a ``Problem``: language from the suffix, the target theorem, its parts.

Parsing proper is ``lean_tools.parsing.parse_source`` (header, preamble, theorem name,
statement). This module adds what the prover needs to write candidates: the theorem's
declaration text verbatim (``ProofAssistant.declaration_text``) and the text after its proof, and it rejects
bad input with ``BadProblem``: unknown suffix, unreadable or unparsable file, no such
theorem, a theorem that is already proved. Whether the statement compiles is checked
later, by the orchestrator, with the proof assistant.
"""

from __future__ import annotations

from pathlib import Path

from lean_tools.assistant import assistant, assistant_for_path

from .errors import BadProblem
from .records import Problem


def language_of(path: str | Path) -> str:
    """Language from the suffix (``lean_tools.assistant.assistant_for_path``), as a ``BadProblem``."""
    try:
        return assistant_for_path(path).name
    except ValueError as e:
        raise BadProblem(str(e)) from None


def load_problem(path: str | Path, theorem: str | None = None, *, informal: str | None = None, name: str | None = None) -> Problem:
    """Read ``path`` and build its ``Problem``. Raises ``BadProblem`` with a one-line message."""
    p = Path(path)
    language = language_of(p)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadProblem(f"{p}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise BadProblem(f"{p}: cannot read: {e}") from None
    return problem_from_text(text, language, theorem=theorem, path=str(p), informal=informal, name=name)


def problem_from_text(
    text: str,
    language: str,
    *,
    theorem: str | None = None,
    path: str | None = None,
    informal: str | None = None,
    name: str | None = None,
) -> Problem:
    """Build a ``Problem`` from source text (see the module docstring for what is rejected)."""
    from lean_tools.source import ParseError

    where = path or "<input>"
    try:
        pa = assistant(language)
    except ValueError as e:
        raise BadProblem(f"{where}: {e}") from None
    text = pa.normalize_source(text)
    try:
        sf = pa.parse(text, theorem=theorem)
    except ParseError as e:
        raise BadProblem(f"{where}: {e}") from None
    if not sf.theorem_name:
        raise BadProblem(f"{where}: the target is an `example` without a name; give it a name (theorem NAME ...)")
    if not sf.proof_is_placeholder() and not pa.has_hole(sf.proof):
        raise BadProblem(f"{where}: theorem {sf.theorem_name} is already proved (its proof has no sorry/admit)")
    declaration = pa.declaration_text(sf)
    proof = sf.proof
    return Problem(
        name=name or sf.theorem_name,
        language=pa.name,
        path=path,
        text=text,
        header=sf.header,
        preamble=sf.preamble,
        theorem_name=sf.theorem_name,
        statement=sf.statement,
        decl_keyword=sf.decl_keyword,
        declaration=declaration,
        proof=proof,
        postamble=text[sf.decl_end :],
        informal=informal,
    )


def render_candidate(problem: Problem, proof: str, lemmas: str = "") -> str:
    """The whole file: the original text with ``lemmas`` inserted before the theorem and the
    theorem's proof replaced by ``proof``. Header, preamble, declaration and postamble are verbatim."""
    lang = assistant(problem.language)
    block = lemmas.strip("\n") + "\n\n" if lemmas.strip() else ""
    pre = problem.header + problem.preamble
    if pre and not pre.endswith("\n"):
        pre += "\n"
    tail = problem.postamble
    out = pre + block + lang.render(problem.declaration, proof)
    if tail.strip():
        out += tail if tail.startswith("\n") else "\n" + tail
    return out.rstrip() + "\n"


def body_after_header(problem: Problem, full_text: str) -> str:
    """The part of a candidate a header-loaded session runs (the header stripped)."""
    if problem.header and full_text.startswith(problem.header):
        return full_text[len(problem.header) :]
    return full_text
