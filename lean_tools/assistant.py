"""One object per proof assistant: everything the layers above need to know about Rocq or Lean.

``assistant("rocq")`` / ``assistant_for_path("x.lean")`` give the ``ProofAssistant`` instance;
code above ``lean_tools`` (prover, sketch, benchmarks, rl, environments) asks it instead of
comparing a language name with a string. It holds:

- identity: ``name`` (the ``Language`` literal stored in records), file ``suffix``, the
  ``hole`` word, how a finished proof is ``closing``, code-fence names, prompt words;
- factories: ``open_session(header)`` (a warm ``ProofSession``), ``checker()`` (a
  ``FileChecker`` that compiles a whole file in a fresh process), ``missing()``;
- source: ``parser`` is the language's parser module (``lean_tools.lean.parser``,
  ``lean_tools.rocq.parser``); ``parse`` and ``declarations`` delegate to it; ``mask`` is the
  shared lexer's one comment masker (``lean_tools.source``, lenient, for model output);
- rendering: a declaration with a proof or a hole, ``has_hole``, ``extract_code``;
- tactic mode (the search's tactic table asks these): ``wrap_tactic`` (a tactic that gives up
  by itself), ``open_statement`` (the command that opens a statement in tactic mode),
  ``proof_line`` (how a tactic appears in the kept proof), ``search_imports``,
  ``intro_tactics``.

Not covered: the soundness verdict (``lean_tools.soundness``), which keeps its own rules per
proof assistant on purpose, and the search families (``prover.search``).
Adding a proof assistant: see ``docs/assistants.md``.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from abc import ABC, abstractmethod
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from . import source
from .session import FileChecker, Language, ProofSession
from .source import SourceFile

if TYPE_CHECKING:
    from .declarations import Declaration, SourceParser
    from .soundness.candidate import CandidateSplit
    from .soundness.verdict import Verdict

_ROCQ_END = re.compile(r"\b(Qed|Admitted|Defined|Abort)\s*\.(?=\s|$)")


class ProofAssistant(ABC):
    """What the rest of the project asks of one proof assistant. Instances hold no state."""

    name: ClassVar[Language]
    """The name records and configs use: ``"rocq"`` or ``"lean"``."""
    display_name: ClassVar[str]
    """A short human name (``Rocq (Coq)``, ``Lean 4``)."""
    suffix: ClassVar[str]
    """File suffix of a source file (``.v``, ``.lean``)."""
    hole: ClassVar[str]
    """Text that leaves a proof unfinished: ``sorry`` (Lean) / ``admit`` (Rocq)."""
    placeholder: ClassVar[str]
    """What a problem file has where its proof goes: ``sorry`` (Lean) / ``Admitted.`` (Rocq)."""
    closing: ClassVar[str]
    """How a finished proof ends a declaration: ``""`` for Lean (``:= by ...``), ``Qed.`` for Rocq."""
    fences: ClassVar[tuple[str, ...]]
    """Code-fence tags of model output in this language (the first is the one prompts ask for)."""
    proof_opener: ClassVar[str]
    """What ``render`` puts between the declaration and the proof body."""
    search_imports: ClassVar[str]
    """What the built-in search loads into its session and puts at the head of its proofs."""
    intro_tactics: ClassVar[tuple[str, ...]] = ("intros",)
    """Tactics the search tries once on the root goal (the first that succeeds is kept)."""
    prompt_values: ClassVar[MappingProxyType[str, str]]
    """The words the prompt templates (``prover/prompts/*.md``) use for this language."""
    hammer: ClassVar[str] = ""
    """The bridge to external automated provers the search can call ("CoqHammer"), "" if none."""
    library_search_tactics: ClassVar[tuple[str, ...]] = ()
    """Tactics that search the library for the goal (Lean ``exact?``); () where the library is
    searched by a command instead (``search_query_error`` vets its query)."""

    def __repr__(self) -> str:
        return f"assistant({self.name!r})"

    # --- factories ---------------------------------------------------------------------
    @abstractmethod
    def open_session(self, header: str, **kwargs: Any) -> ProofSession:
        """A new (not yet started) interactive session on ``header``."""

    @abstractmethod
    def checker(self, **kwargs: Any) -> FileChecker:
        """A whole-file checker (fresh sandboxed process per file)."""

    @abstractmethod
    def kernel_verdict(
        self, problem: SourceFile, candidate_text: str, split: CandidateSplit, *, timeout: float, assumed: frozenset[str] = frozenset()
    ) -> Verdict:
        """The proof-assistant stage of ``lean_tools.soundness.verify`` on a candidate that passed
        the static rules (``split`` is their analysis). Raises ``NotInstalled``."""

    @abstractmethod
    def missing(self) -> str | None:
        """Why this proof assistant cannot run here (a one-line message with the fix), or None."""

    @abstractmethod
    def fingerprint(self) -> str:
        """The installed checker's version and libraries, one line ("" when not installed): a
        cache key for results that depend on the checker."""

    # --- source ------------------------------------------------------------------------
    @property
    @abstractmethod
    def parser(self) -> SourceParser:
        """This language's source parser (imported on first use)."""

    def parse(self, text: str, theorem: str | None = None, *, strict: bool = False) -> SourceFile:
        """``lean_tools.parsing.parse_source`` for this language (raises ``ParseError``)."""
        return self.parser.parse(text, theorem, strict=strict)

    def declarations(self, text: str) -> list[Declaration]:
        """The named theorem-like declarations of ``text`` (model output), in order
        (``lean_tools.parsing.declarations``; a Lean ``example`` has no name and is left out)."""
        return [d for d in self.parser.declarations(text) if d.name]

    def mask(self, text: str) -> str:
        """Same-length copy of ``text`` with comments and strings blanked, so offsets in the
        mask are offsets in the text; an unterminated comment or string blanks to the end."""
        return source.mask(text, self.name, lenient=True)

    def normalize_source(self, text: str) -> str:
        """A problem file's text as this installation reads it (identity unless overridden)."""
        return text

    @abstractmethod
    def declaration_text(self, sf: SourceFile) -> str:
        """The target's declaration as ``render`` takes it (the text before its proof)."""

    def imports_text(self, modules: tuple[str, ...]) -> str:
        """Sentences that ``Require`` ``modules`` (dotted names) in a check; "" when not supported."""
        return ""

    # --- rendering ---------------------------------------------------------------------
    @abstractmethod
    def render(self, declaration: str, proof: str) -> str:
        """``declaration`` with ``proof`` as its body, ending in a newline."""

    @abstractmethod
    def render_hole(self, declaration: str) -> str:
        """``declaration`` with a placeholder proof (it compiles with a warning)."""

    @abstractmethod
    def render_open(self, declaration: str, prefix: str) -> str:
        """``declaration`` with its proof started by ``prefix`` (possibly empty) and left open, so
        that a check reports the goals that remain."""

    @abstractmethod
    def has_hole(self, proof: str) -> bool:
        """``proof`` (comments ignored) is empty or leaves something unproved."""

    def search_query_error(self, query: str) -> str | None:
        """Why ``query`` cannot be given to the library search command, or None (also None
        where the library is searched by tactics and the query is not used)."""
        return None

    def extract_code(self, reply: str) -> str | None:
        """The last fenced code block in ``reply`` whose tag is this language's (or untagged);
        an unclosed last block counts."""
        blocks = re.findall(r"```([\w+-]*)[^\n]*\n(.*?)```", reply, re.DOTALL)
        good = [b for tag, b in blocks if tag.lower() in self.fences or tag == ""]
        if good:
            return good[-1]
        open_block = re.search(r"```([\w+-]*)[^\n]*\n(.*)$", reply, re.DOTALL)
        if open_block and open_block.group(1).lower() in (*self.fences, ""):
            return open_block.group(2)
        return None

    # --- tactic mode -------------------------------------------------------------------
    @abstractmethod
    def wrap_tactic(self, tactic: str, timeout: float) -> str:
        """What a session runs for ``tactic`` so that it gives up by itself after ``timeout`` s
        (where the language has no such wrapper, the session's own timeout is the limit)."""

    @abstractmethod
    def open_statement(self, statement_code: str) -> str:
        """The command that opens ``statement_code`` (a declaration, with or without a trailing
        ``:= by``) for tactic mode."""

    @abstractmethod
    def proof_line(self, tactic: str) -> str:
        """How ``tactic`` appears in a kept proof script."""


class Rocq(ProofAssistant):
    name = "rocq"
    display_name = "Rocq (Coq)"
    suffix = ".v"
    hole = "admit"
    placeholder = "Admitted."
    closing = "Qed."
    fences = ("coq", "rocq", "v")
    proof_opener = "\nProof.\n"
    hammer = "CoqHammer"
    search_imports = "From Coq Require Import Lia Lra Psatz."
    """Require inside a proof is accepted by Coq 8.16 and is a no-op when already loaded."""
    prompt_values = MappingProxyType(
        {
            "language": "Rocq (Coq 8.16)",
            "fence": "coq",
            "lemma_keyword": "Lemma",
            "hole_example": "`Admitted.` right after the statement",
            "proof_shape": "of the tactic script between `Proof.` and `Qed.` (without those two words)",
            "forbidden": "`admit`, `Admitted`, `Axiom`, `Abort` or changes to the statement",
        }
    )

    @property
    def parser(self) -> SourceParser:
        """``lean_tools.rocq.parser``."""
        from .rocq import parser

        return parser

    def open_session(self, header: str, **kwargs: Any) -> ProofSession:
        from .rocq.session import RocqSession

        return RocqSession(header, **kwargs)

    def checker(self, **kwargs: Any) -> FileChecker:
        from .rocq.checker import RocqChecker

        return RocqChecker(**kwargs)

    def kernel_verdict(
        self, problem: SourceFile, candidate_text: str, split: CandidateSplit, *, timeout: float, assumed: frozenset[str] = frozenset()
    ) -> Verdict:
        """``rocq_verify.verify_rocq``: coqc, ``constr_eq`` statement check, ``Print Assumptions``."""
        from .soundness.rocq_verify import verify_rocq

        return verify_rocq(problem, candidate_text, split, timeout=timeout, assumed=assumed)

    def missing(self) -> str | None:
        if shutil.which("coqtop") is None or shutil.which("coqc") is None:
            return "Rocq (coqtop/coqc) is not installed: run `prover-setup rocq`"
        return None

    def fingerprint(self) -> str:
        """``coqc`` version and the user-contrib libraries."""
        if shutil.which("coqc") is None:
            return ""
        out = subprocess.run(["coqc", "--version"], check=False, capture_output=True, text=True, timeout=30).stdout
        where = subprocess.run(["coqc", "-where"], check=False, capture_output=True, text=True, timeout=30).stdout.strip()
        contrib = sorted(p.name for p in Path(where, "user-contrib").glob("*")) if where else []
        version = out.split("version")[-1].split()[0] if "version" in out else "?"
        return f"coqc {version}; user-contrib: {','.join(contrib)}"

    def normalize_source(self, text: str) -> str:
        """Rocq 9's ``From Stdlib`` read as ``From Coq`` (Coq 8.16 is what runs here)."""
        return re.sub(r"From\s+Stdlib\b", "From Coq", text)

    def declaration_text(self, sf: SourceFile) -> str:
        return sf.text[sf.decl_start : sf.statement_end + 1]

    def imports_text(self, modules: tuple[str, ...]) -> str:
        """``("Coq.Lia", "Coq.Lra", "Foo")`` -> ``From Coq Require Import Lia Lra.\\nRequire Import Foo.``"""
        roots: dict[str, list[str]] = {}
        for m in modules:
            root, _, name = m.rpartition(".")
            roots.setdefault(root, []).append(name)
        return "\n".join(
            f"From {root} Require Import {' '.join(names)}." if root else f"Require Import {' '.join(names)}."
            for root, names in roots.items()
        )

    def render(self, declaration: str, proof: str) -> str:
        """``Proof.`` + body + ``Qed.``; a body's own ``Proof.`` and final ``Qed.``/``Defined.`` are dropped."""
        body = proof.strip("\n").strip()
        if re.search(r"^\s*Proof\b", body):
            body = re.sub(r"^\s*Proof\s*\.", "", body, count=1).strip("\n")
        body = _ROCQ_END.sub("", body).rstrip() if re.search(r"(Qed|Defined)\s*\.\s*$", body) else body
        return f"{declaration.rstrip()}\nProof.\n{body}\nQed.\n"

    def render_hole(self, declaration: str) -> str:
        return f"{declaration.rstrip()}\nAdmitted.\n"

    def render_open(self, declaration: str, prefix: str) -> str:
        """``Proof.`` and ``prefix`` without a terminator: coqtop keeps the proof open."""
        return f"{declaration.rstrip()}\nProof.\n{prefix.strip()}\n"

    def has_hole(self, proof: str) -> bool:
        masked = self.mask(proof)
        return bool(re.search(r"\b(admit|Admitted|Abort|give_up)\b", masked)) or not masked.strip()

    def search_query_error(self, query: str) -> str | None:
        """A ``Search`` pattern must be one lexable pattern: no sentence end, no command."""
        if not query:
            return "`query` is empty: give one Search pattern, e.g. (_ + _ = _ + _) or Rabs"
        try:
            bare = source.mask(query, "rocq")
        except source.ParseError as e:
            return f"`query` does not lex: {e}"
        if "\n" in query or re.search(r"\.(\s|$)", bare) or re.search(r"\b(Load|Drop|Redirect|Declare|Require|Extraction|Cd)\b", bare):
            return "`query` must be one Search pattern (no sentence end, no commands), e.g. (_ * _ <= _ * _)"
        return None

    def wrap_tactic(self, tactic: str, timeout: float) -> str:
        """``Timeout N (tactic).`` with N whole seconds, at least 1."""
        return f"Timeout {max(1, math.ceil(timeout))} ({tactic})."

    def open_statement(self, statement_code: str) -> str:
        """The statement itself: coqtop enters proof mode after it."""
        return statement_code.strip()

    def proof_line(self, tactic: str) -> str:
        return tactic + "."


class Lean(ProofAssistant):
    name = "lean"
    display_name = "Lean 4"
    suffix = ".lean"
    hole = "sorry"
    placeholder = "sorry"
    closing = ""
    fences = ("lean", "lean4")
    proof_opener = " := by\n"
    search_imports = ""
    library_search_tactics = ("exact?", "apply?")
    prompt_values = MappingProxyType(
        {
            "language": "Lean 4 with Mathlib",
            "fence": "lean",
            "lemma_keyword": "lemma",
            "hole_example": "`:= by sorry`",
            "proof_shape": "after `:= by` (the tactic block, without `:= by`)",
            "forbidden": "`sorry`, `admit`, `axiom`, `native_decide` or changes to the statement",
        }
    )

    @property
    def parser(self) -> SourceParser:
        """``lean_tools.lean.parser``."""
        from .lean import parser

        return parser

    def open_session(self, header: str, **kwargs: Any) -> ProofSession:
        from .lean.repl import LeanReplSession

        return LeanReplSession(header, **kwargs)

    def checker(self, **kwargs: Any) -> FileChecker:
        from .lean.checker import LeanChecker

        return LeanChecker(**kwargs)

    def kernel_verdict(
        self, problem: SourceFile, candidate_text: str, split: CandidateSplit, *, timeout: float, assumed: frozenset[str] = frozenset()
    ) -> Verdict:
        """``lean_verify.verify_lean``, which locates the helpers again itself (leniently), as
        it always has; ``split`` is not passed on."""
        from .soundness.lean_verify import verify_lean

        return verify_lean(problem, candidate_text, timeout=timeout)

    def missing(self) -> str | None:
        if shutil.which("lake") is None and shutil.which("lean") is None:
            return "Lean 4 is not installed (neither `lake` nor `lean` on PATH): run `prover-setup lean`"
        return None

    def fingerprint(self) -> str:
        """``lake --version``."""
        if shutil.which("lake") is None:
            return ""
        return "lake " + subprocess.run(["lake", "--version"], check=False, capture_output=True, text=True, timeout=60).stdout.strip()

    def declaration_text(self, sf: SourceFile) -> str:
        return re.sub(r"\s*:=\s*$", "", sf.text[sf.decl_start : sf.proof_start])

    def render(self, declaration: str, proof: str) -> str:
        """``:= by`` + the body re-indented by two spaces; a body's own ``:=``/``by`` is dropped."""
        body = re.sub(r"^\s*:=\s*", "", proof.strip("\n"))
        body = re.sub(r"^\s*by\b", "", body).strip("\n")
        lines = body.splitlines() or ["sorry"]
        indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
        body = "\n".join("  " + line[indent:] if line.strip() else "" for line in lines)
        return f"{declaration.rstrip()} := by\n{body}\n"

    def render_hole(self, declaration: str) -> str:
        return f"{declaration.rstrip()} := by\n  sorry\n"

    def render_open(self, declaration: str, prefix: str) -> str:
        """``prefix`` then ``sorry``: the REPL reports the goal at the hole."""
        return self.render(declaration, (prefix.strip() + "\n" if prefix.strip() else "") + "sorry")

    def has_hole(self, proof: str) -> bool:
        masked = self.mask(proof)
        return bool(re.search(r"\b(sorry|admit)\b", masked)) or not masked.strip()

    def wrap_tactic(self, tactic: str, timeout: float) -> str:
        """The tactic unchanged: the REPL request's timeout is the limit."""
        return tactic

    @staticmethod
    def bare_statement(statement_code: str) -> str:
        """A declaration without a trailing ``:= by`` / ``:=`` (callers may pass either form)."""
        s = statement_code.rstrip()
        for tail in (":= by", ":="):
            if s.endswith(tail):
                return s[: -len(tail)].rstrip()
        return s

    def open_statement(self, statement_code: str) -> str:
        """The statement with a ``sorry`` body: the REPL reports the hole's proof state."""
        return self.bare_statement(statement_code) + " := by\n  sorry"

    def proof_line(self, tactic: str) -> str:
        return tactic


ROCQ = Rocq()
LEAN = Lean()
ASSISTANTS: MappingProxyType[str, ProofAssistant] = MappingProxyType({a.name: a for a in (ROCQ, LEAN)})
"""Every proof assistant, by name."""


def assistant(name: str) -> ProofAssistant:
    """The proof assistant called ``name``; ``ValueError`` naming the known ones otherwise."""
    try:
        return ASSISTANTS[name]
    except (KeyError, TypeError):
        known = " or ".join(repr(n) for n in ASSISTANTS)
        raise ValueError(f"unknown proof assistant {name!r}: expected {known}") from None


def assistant_for_path(path: str | Path) -> ProofAssistant:
    """The proof assistant of a source file, from its suffix; ``ValueError`` naming the suffix otherwise."""
    suffix = Path(path).suffix
    for a in ASSISTANTS.values():
        if a.suffix == suffix:
            return a
    known = " or ".join(f"{a.suffix} ({a.display_name})" for a in ASSISTANTS.values())
    raise ValueError(f"{path}: unknown file type (suffix {suffix or '(none)'!r}); expected {known}")
