"""Premise selection for a hole of a Rocq project file: the earlier lemmas and definitions a proof
of the hole may use, ranked by relevance to its statement, and the section context in force.

- ``collect_premises(text, hole, project, path=...)``: the lemmas, definitions, inductive types
  and axioms declared before the hole in its own file (from inside the hole's open sections with
  their statements as written), then those of the project's files the file loads (its
  ``Require``s, followed through the project's own files). Read statically: no ``coqc`` runs.
  Lemmas still ``Admitted`` are left out unless ``allow_admitted`` (then marked).
- ``select(premises, goal_text, k)``: the ``k`` most relevant, by TF-IDF cosine over the
  identifiers and symbol runs of the statements (the k-NN index's features,
  ``prover.search.knn_index``); ties go to the nearer premise (the hole's own file before the
  project, later in a file first).
- ``section_context(text, hole)``: the ``Variable``/``Variables``/``Hypothesis``/``Hypotheses``/
  ``Context``/``Let`` sentences of the sections open at the hole, as written.
- ``hole_context``: both, as the ``HoleContext`` a ``Problem`` carries to the agents, whose task
  prompt shows it (``prompt_block``).
- ``rank_context``: the search's own candidates from the file's lemmas (``ProblemContext``'s
  rewrite rules and lemmas) put in the same order of relevance, none dropped; a file outside a
  project keeps them exactly as they were.

Not covered: names are what the text declares (a lemma made by a tactic command, a ``Notation``,
an ``Instance`` or a functor's application is not listed); lemmas inside a functor or a module
type are listed only from within it; a lemma of a section closed before the hole is shown as
written, without the section variables Rocq generalised it over (its record names the sections).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

from lean_tools.rocq.holes import Hole
from lean_tools.rocq.project import RocqProject
from lean_tools.rocq.walk import IDENT, ProofRule, Scope, walk
from lean_tools.types import Record

if TYPE_CHECKING:
    from .search.goal import ProblemContext
    from .search.knn_index import Goal

PremiseKind = Literal["lemma", "definition", "inductive", "axiom"]
Where = Literal["section", "file", "project"]
"""``section``: the hole's own file, inside a section still open at the hole; ``file``: elsewhere
earlier in the hole's own file; ``project``: another file of the project that the file loads."""

_LEMMA_KEYWORDS = ("Theorem", "Lemma", "Fact", "Remark", "Corollary", "Proposition", "Property")
_KINDS: dict[str, PremiseKind] = {
    **dict.fromkeys(_LEMMA_KEYWORDS, "lemma"),
    **dict.fromkeys(("Definition", "Fixpoint", "CoFixpoint", "Function"), "definition"),
    **dict.fromkeys(("Inductive", "CoInductive", "Variant", "Record", "Structure", "Class"), "inductive"),
    **dict.fromkeys(("Axiom", "Parameter", "Conjecture"), "axiom"),
}
_ATTRIBUTES = r"(?:#\[[^\]]*\]\s*)*(?:(?:Local|Global|Polymorphic|Monomorphic|Program)\s+)*"
_DECL = re.compile(rf"{_ATTRIBUTES}(?P<kw>{'|'.join(_KINDS)})\s+(?P<name>{IDENT})")
_CONTEXT = re.compile(rf"{_ATTRIBUTES}(?:Variables?|Hypothes[ie]s|Context|Let)\b")
_REQUIRE = re.compile(r"(?:From\s+(?P<prefix>[\w'.]+)\s+)?Require\s+(?:(?:Import|Export)\s+)?(?P<names>.*)\.$", re.S)
SHOWN_CHARS = 400
"""A statement longer than this is cut in the prompt (a long definition's body)."""


class Premise(Record):
    """One earlier declaration a proof of the hole may use."""

    name: str
    """How the hole names it: modules closed before the hole qualify it (``M.lemma``); a project
    file's declaration has its full logical name (``Proj.File.M.lemma``)."""
    statement: str
    """Its declaration sentence as written (comments removed, whitespace collapsed)."""
    file: str
    """The file it is declared in (relative to the project's root when inside it)."""
    kind: PremiseKind
    where: Where
    position: int = 0
    """Offset of its declaration in its file (ties in the ranking go to the later one)."""
    admitted: bool = False
    """A lemma still ``Admitted``: a proof resting on it is only proved assuming it."""
    sections: tuple[str, ...] = ()
    """Sections closed since it was declared: Rocq generalised it over their variables it uses."""


class HoleContext(Record):
    """What the agents are shown about a hole's surroundings (``Problem.hole_context``)."""

    section: str = ""
    """The section context in force at the hole (``section_context``), as written."""
    premises: tuple[Premise, ...] = ()
    """The most relevant earlier declarations (``select``), best first."""


@dataclasses.dataclass(frozen=True)
class _Item:
    """A declaration (or a section-context sentence, ``kind="context"``) met by ``_walk``."""

    kind: str
    name: str
    text: str
    start: int
    chain: tuple[int, ...]
    """Ids (indices into ``_Walk.scopes``) of the scopes around it, outermost first."""
    admitted: bool = False


@dataclasses.dataclass(frozen=True)
class _Walk:
    items: tuple[_Item, ...]
    scopes: tuple[Scope, ...]
    open_ids: tuple[int, ...]
    """The scopes still open at the end of the text."""
    requires: tuple[tuple[str, str], ...]
    """(``From`` prefix or "", required name) of each ``Require``."""


def _opens_proof(head: str) -> bool:
    """A lemma, or a ``Definition`` without ``:=``: proof mode until its terminator."""
    m = _DECL.match(head)
    return m is not None and ":=" not in head and (_KINDS[m.group("kw")] == "lemma" or m.group("kw") == "Definition")


_PROOFS = ProofRule(opens=lambda head, following: _opens_proof(head), cuts=lambda head, following: _DECL.match(head) is not None)
"""A proof ends at its terminator or, unfinished, at the next declaration, which is read afresh."""


@functools.lru_cache(maxsize=128)
def _walk(text: str) -> _Walk:
    """The declarations, section-context sentences, scopes and ``Require``s of ``text``, in order.
    Raises ``lean_tools.source.ParseError`` for an unterminated comment or string."""
    from lean_tools.source import mask

    shown = mask(text, "rocq", strings=False)
    scopes: list[Scope] = []
    ids: tuple[int, ...] = ()
    items: list[_Item] = []
    requires: list[tuple[str, str]] = []
    for step in walk(text, _PROOFS):
        ids, head = step.ids, step.head
        if step.change == "open":
            scopes.append(step.scopes[-1])
        if step.change is not None or step.in_proof:
            continue
        sentence = " ".join(shown[step.start : step.end].split())
        if (req := _REQUIRE.match(head)) is not None:
            requires += [(req.group("prefix") or "", n) for n in req.group("names").split()]
            continue
        if _CONTEXT.match(head):
            items.append(_Item("context", "", sentence, step.start, ids))
            continue
        m = _DECL.match(head)
        if m is None:
            continue
        if step.proof is not None and step.proof.terminator not in ("Qed", "Defined", "Admitted", "Save"):
            continue  # aborted or unfinished: nothing is declared
        admitted = step.proof is not None and step.proof.terminator == "Admitted"
        items.append(_Item(_KINDS[m.group("kw")], m.group("name"), sentence, step.start, ids, admitted))
    return _Walk(tuple(items), tuple(scopes), ids, tuple(requires))


def _nameable(walk: _Walk, chain: Sequence[int]) -> bool:
    """No functor or module type among the scopes closed around it (those hide their names)."""
    return all(walk.scopes[c].kind in ("section", "module") for c in chain if c not in walk.open_ids)


def _premise(walk: _Walk, item: _Item, *, prefix: str, file: str, where: Where | None) -> Premise:
    """``item`` as seen from the end of ``walk``'s text (``where=None``: from another file)."""
    closed = [walk.scopes[c] for c in item.chain if c not in walk.open_ids]
    name = ".".join([*filter(None, [prefix]), *(s.name for s in closed if s.kind == "module"), item.name])
    if where is None:
        where = "project"
    elif any(walk.scopes[c].kind == "section" for c in item.chain if c in walk.open_ids):
        where = "section"
    return Premise(
        name=name,
        statement=item.text,
        file=file,
        kind=item.kind,  # type: ignore[arg-type]
        where=where,
        position=item.start,
        admitted=item.admitted,
        sections=tuple(s.name for s in closed if s.kind == "section"),
    )


def collect_premises(
    text: str, hole: Hole, project: RocqProject, *, path: str | None = None, allow_admitted: bool = False
) -> list[Premise]:
    """The declarations a proof of ``hole`` may use: the file's own before the hole's declaration
    (only ``text[:hole.decl_start]`` is read), in file order, then those of the project's files
    the file loads, file by file. ``path``: the file itself, so that the project's copy of it is
    not read. Lemmas still ``Admitted`` only with ``allow_admitted``. A file with an
    unterminated comment raises ``lean_tools.source.ParseError`` (its own) or is passed over
    (a project file)."""
    walk = _walk(text[: hole.decl_start])
    shown = _relative(path, project) if path else ""
    out = [
        _premise(walk, it, prefix="", file=shown, where="file")
        for it in walk.items
        if it.kind != "context" and (allow_admitted or not it.admitted) and _nameable(walk, it.chain)
    ]
    for file, module in _loaded_files(walk.requires, project, path):
        other = _walk_file(str(file))
        if other is None:
            continue
        out += [
            _premise(other, it, prefix=module, file=_relative(str(file), project), where=None)
            for it in other.items
            if it.kind != "context" and (allow_admitted or not it.admitted) and _nameable(other, it.chain)
        ]
    return out


def _relative(path: str, project: RocqProject) -> str:
    p = Path(path).resolve()
    if project.root and p.is_relative_to(Path(project.root).resolve()):
        return str(p.relative_to(Path(project.root).resolve()))
    return path


def _walk_file(path: str) -> _Walk | None:
    """``_walk`` of a project file (cached by its text); None when it cannot be read."""
    from lean_tools.source import ParseError

    try:
        return _walk(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ParseError):
        return None


def _project_files(project: RocqProject) -> list[tuple[Path, str]]:
    """(file, logical module name) of every ``.v`` file under the project's ``-Q``/``-R`` folders."""
    flags = project.flags
    out: list[tuple[Path, str]] = []
    for i, f in enumerate(flags[:-2]):
        if f not in ("-Q", "-R"):
            continue
        folder, logical = Path(flags[i + 1]), flags[i + 2]
        for p in sorted(folder.rglob("*.v")) if folder.is_dir() else []:
            out.append((p, ".".join(filter(None, [logical, *p.relative_to(folder).with_suffix("").parts]))))
    return out


def _requires(module: str, prefix: str, name: str) -> bool:
    """``From prefix Require name`` (or ``Require name``) loads the module ``module``."""
    full = f"{prefix}.{name}" if prefix else name
    if module == full:
        return True
    return module.endswith("." + name) and (not prefix or module.startswith(prefix + "."))


def _loaded_files(requires: Sequence[tuple[str, str]], project: RocqProject, path: str | None) -> list[tuple[Path, str]]:
    """The project's files that ``requires`` load, directly or through other project files, in
    the order they are first required; never the file ``path`` itself."""
    files = _project_files(project)
    own = Path(path).resolve() if path else None
    loaded: list[tuple[Path, str]] = []
    todo = list(requires)
    while todo:
        prefix, name = todo.pop(0)
        for file, module in files:
            if _requires(module, prefix, name) and (file, module) not in loaded and file.resolve() != own:
                loaded.append((file, module))
                walk = _walk_file(str(file))
                todo += list(walk.requires) if walk else []
    return loaded


def section_context(text: str, hole: Hole) -> str:
    """The section-context sentences (``Variable``, ``Variables``, ``Hypothesis``, ``Hypotheses``,
    ``Context``, ``Let``) in force at ``hole``: those of its open sections, as written, one a
    line; "" outside any section."""
    walk = _walk(text[: hole.decl_start])
    return "\n".join(
        it.text
        for it in walk.items
        if it.kind == "context"
        and all(c in walk.open_ids for c in it.chain)
        and any(walk.scopes[c].kind == "section" for c in it.chain)
    )


T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class _Doc:
    """A statement as the k-NN index reads a step (``knn_index.IndexedStep``)."""

    goals_before: Goal
    tactic: str = ""
    lemma: str = ""
    library: str = ""
    file: str = ""


def _cosines(texts: Sequence[str], query: str) -> list[float]:
    """TF-IDF cosine of ``query`` to each text (idf over ``texts``), with the k-NN index's features."""
    from .search.knn_index import Goal, KnnIndex

    if not texts:
        return []
    index = KnnIndex.build(_Doc(Goal(conclusion=t.strip() or "_")) for t in texts)
    return [float(s) for s in index.scores(Goal(conclusion=query))]


def rank(items: Sequence[T], text_of: Callable[[T], str], goal_text: str) -> list[T]:
    """``items`` most relevant to ``goal_text`` first (TF-IDF cosine of ``text_of(item)``); ties
    keep their order. Nothing is dropped."""
    scores = _cosines([text_of(x) for x in items], goal_text)
    order = sorted(range(len(items)), key=lambda i: -scores[i])
    return [items[i] for i in order]


def ranking_text(statement: str) -> str:
    """What a statement is compared by: a lemma's binders and type (its keyword and name left
    out: a goal does not mention them); a definition's name and body."""
    m = _DECL.match(statement)
    if m is None:
        return statement
    return statement[m.end() :] if _KINDS[m.group("kw")] in ("lemma", "axiom") else statement[m.start("name") :]


def select(premises: Sequence[Premise], goal_text: str, k: int = 12) -> list[Premise]:
    """The ``k`` premises most relevant to ``goal_text``; ties go to the nearer one (the hole's
    own file before the project, later in a file first)."""
    near = sorted(premises, key=lambda p: (p.where == "project", -p.position))
    return rank(near, lambda p: ranking_text(p.statement), goal_text)[: max(k, 0)]


def hole_context(text: str, hole: Hole, project: RocqProject, goal_text: str, *, path: str | None = None, k: int = 12) -> HoleContext:
    """The section context and the ``k`` most relevant premises of ``hole`` (admitted lemmas left
    out: a proof resting on one is not a proof under the global context)."""
    premises = collect_premises(text, hole, project, path=path)
    return HoleContext(section=section_context(text, hole), premises=tuple(select(premises, goal_text, k)))


def prompt_block(ctx: HoleContext | None, fence: str) -> str:
    """The agent's task prompt's "Section context" and "Relevant earlier lemmas" blocks; "" when
    there is nothing to show."""
    if ctx is None:
        return ""
    parts = []
    if ctx.section:
        parts.append(f"Section context (in force at the lemma, as written):\n```{fence}\n{ctx.section}\n```")
    if ctx.premises:
        lines = []
        for p in ctx.premises:
            where = {"section": "this section", "file": "earlier in this file", "project": f"project file {p.file}"}[p.where]
            note = f"; generalised over the variables of section {', '.join(p.sections)}" if p.sections else ""
            stmt = p.statement if len(p.statement) <= SHOWN_CHARS else p.statement[:SHOWN_CHARS] + " ..."
            lines += [f"(* {p.name}: {where}{note} *)", stmt]
        body = "\n".join(lines)
        parts.append(f"Relevant earlier lemmas (most relevant first; use them by these names):\n```{fence}\n{body}\n```")
    return "\n\n".join(parts)


def rank_context(ctx: ProblemContext, header: str, statement: str) -> ProblemContext:
    """``ctx`` with its rewrite rules (``equations``) most relevant to ``statement`` first and its
    lemmas most relevant last (``apply-local`` tries them from the end), when a Rocq project is
    active; without one ``ctx`` unchanged. Nothing is dropped; ties keep their order."""
    from lean_tools.rocq.project import load_path_args, project_sources
    from lean_tools.source import ParseError

    if not load_path_args() or not (ctx.equations or ctx.lemmas):
        return ctx
    statements: dict[str, str] = {}
    for text in (*project_sources(), header):  # the header last: its own lemma wins a clash of names
        try:
            statements.update({it.name: ranking_text(it.text) for it in _walk(text).items if it.kind == "lemma"})
        except ParseError:
            continue
    equations = rank(ctx.equations, lambda n: statements.get(n, n), statement)
    best_first = rank(ctx.lemmas[::-1], lambda nh: statements.get(nh[0], nh[0]), statement)
    return dataclasses.replace(ctx, equations=tuple(equations), lemmas=tuple(best_first[::-1]))
