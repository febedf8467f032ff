"""Replay one library ``.v`` file sentence by sentence in a warm ``coqtop`` and record its proof steps.

What is covered: every sentence of the file is sent, in order, to a fresh ``coqtop`` (the project's
``RocqSession`` wire: pipes, end-of-block markers, SIGINT on a runaway sentence), each followed by
``Show.``, whose answer gives the proof state after the sentence and the name of the open proof.
A *step* is a tactic sentence sent while a proof is open with a focused goal; its goals before
and after are the focused goal (hypotheses and conclusion) and the count of other focused goals.

Structure is not a step: the bullets ``-``/``+``/``*`` (any repetition), the braces ``{``/``}``
and the selector-braces ``2: {`` / ``[x]: {`` are split off the sentence they start and sent on
their own, so the goal before the tactic that follows is the goal they focused.
Vernacular inside proofs is not a step either (``Proof``, ``Qed``, ``Check``, ``Hint``...: any
sentence starting with an upper-case letter; ``Fail tac`` and ``Time tac`` included).

What is kept: the steps of proofs closed by ``Qed``/``Defined``/``Save``; the steps of proofs
closed by ``Admitted``/``Abort`` are dropped. A file stops at its first error, per-sentence
timeout or per-file deadline; the steps of the proofs it finished are kept and the reason recorded.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from lean_tools.rocq.session import RocqSession
from lean_tools.source import mask
from lean_tools.types import SessionCrashed, SessionOutOfMemory, SessionTimeout

from .schema import LICENCES, Goal, Library, Split, Step, goal_from_text

try:  # the Rocq sentence splitter's new home (``Sentence`` records), then its old one (pairs)
    from lean_tools.rocq.parser import rocq_sentences as _splitter
except ImportError:  # pragma: no cover - depends on the tree's layout
    from lean_tools.source import rocq_sentences as _splitter  # type: ignore[no-redef,attr-defined,unused-ignore]


def sentence_spans(masked: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of masked text, from the project's Rocq sentence splitter."""
    out: list[tuple[int, int]] = []
    for s in _splitter(masked):
        out.append((s.start, s.end) if hasattr(s, "start") else (s[0], s[1]))  # type: ignore[index,unused-ignore]
    return out


_PROMPT = re.compile(r"<prompt>(?P<name>\S*) < \d+ \|.*?</prompt>")
_INFOMSG = re.compile(r"<infomsg>.*?</infomsg>", re.S)
_HEAD = re.compile(r"^(\d+) (?:focused )?goals?(?: \(shelved: \d+\))?(?: \(ID \d+\))?\s*$", re.M)
_OTHER_GOAL = re.compile(r"\n\s*goal \d+(?: \(ID \d+\))? is:\n")
_ERROR = re.compile(r"^Error:\s*(.*)$", re.M)
_STRUCT = re.compile(r"[-+*]+|\{(?!\|)|\}|(?:\d+|\[[^\]\s]+\])\s*:\s*\{(?!\|)")
"""A bullet, a brace, or a selector-brace at the start of a sentence (``{|`` opens a record, not a goal)."""
_CLOSE_KEEP = re.compile(r"(?:Qed|Defined|Save)\b")
_PROOF_TERM = re.compile(r"Proof\s+(?!using\b|with\b)\S")
"""``Proof term.`` must follow its statement directly: coqtop refuses it after any other sentence."""
_SPACE = re.compile(r"\s+")


class FileResult(BaseModel):
    """What replaying one file gave: its status, why it stopped, and its counts."""

    model_config = ConfigDict(frozen=True)

    library: Library
    file: str
    split: Split
    status: Literal["ok", "failed", "timeout"]
    reason: str = ""
    """Why the file stopped early (the first error, a timeout), with its line; empty when ok."""
    sentences: int = 0
    """Sentences sent (structure tokens included)."""
    proofs: int = 0
    """Proofs whose steps were kept."""
    steps: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class ProofView:
    """The answer of ``Show.``: is a proof open, its name, the focused goal."""

    open: bool
    name: str
    goal: Goal


@dataclass(frozen=True)
class Piece:
    """One block sent to coqtop: a structure token or a sentence, and its 1-based line."""

    text: str
    line: int
    structure: bool


def parse_show(body: str) -> ProofView:
    """Read coqtop's (``-emacs``) answer to ``Show.``."""
    prompts = list(_PROMPT.finditer(body))
    name = prompts[-1].group("name") if prompts else ""
    if "This command requires an open proof" in body or "No focused proof" in body:
        return ProofView(open=False, name=name, goal=Goal())
    text = _PROMPT.sub("", _INFOMSG.sub("", body)).strip()
    if "This subproof is complete" in body or not text or text.startswith(("No more goals", "All the remaining goals")):
        return ProofView(open=True, name=name, goal=Goal())
    head = _HEAD.search(text)
    if head is None:
        return ProofView(open=True, name=name, goal=goal_from_text(text))
    first = _OTHER_GOAL.split(text[head.end() :], maxsplit=1)[0]
    return ProofView(open=True, name=name, goal=goal_from_text(first, others=int(head.group(1)) - 1))


def pieces(text: str) -> list[Piece]:
    """The blocks of a file in order: its sentences (comments blanked, strings kept), with the
    bullets and braces that open a sentence split off as blocks of their own."""
    masked = mask(text, "rocq")
    code = mask(text, "rocq", strings=False)
    out: list[Piece] = []
    for a, b in sentence_spans(masked):
        pos = a
        while True:
            m = _STRUCT.match(masked, pos, b)
            if m is None:
                break
            out.append(Piece(text=m.group(0), line=masked.count("\n", 0, pos) + 1, structure=True))
            pos = m.end()
            while pos < b and masked[pos].isspace():
                pos += 1
        if pos < b:
            out.append(Piece(text=code[pos:b], line=masked.count("\n", 0, pos) + 1, structure=False))
    return out


def is_tactic(sentence: str) -> bool:
    """True for a sentence that is a tactic (not vernacular): it does not start with a capital."""
    head = sentence.lstrip()[:1]
    return bool(head) and not head.isupper()


def tactic_text(sentence: str) -> str:
    """The tactic as recorded: whitespace runs collapsed to one space."""
    return _SPACE.sub(" ", sentence).strip()


class _ReplaySession(RocqSession):
    """``RocqSession`` used linearly: each block with a ``Show.`` after it, no virtual states."""

    def send(self, block: str, timeout: float) -> tuple[str, str]:
        """Send ``block`` then ``Show.``; return coqtop's answers to both."""
        rep, answer = self._exchange_many([block, "Show."], timeout=timeout)
        return rep.body, answer.body


@dataclass(frozen=True)
class ReplayConfig:
    """How one file is replayed."""

    step_timeout: float = 60.0
    """Seconds one sentence may take (Rocq's own work: a slow ``Qed`` counts)."""
    file_timeout: float = 600.0
    """Seconds the whole file may take."""
    extra_args: tuple[str, ...] = ()
    """More ``coqtop`` arguments (``-noinit`` for the standard library's ``Init`` files)."""
    header: str = ""
    """Text loaded as one block before the file's sentences (within ``file_timeout``); its proofs
    give no steps. Used to replay only the end of a long file."""


def replay_file(path: Path, library: Library, relpath: str, split: Split,
                config: ReplayConfig = ReplayConfig()) -> tuple[FileResult, list[Step]]:
    """Replay ``path`` and return its result and the steps of the proofs it kept.

    A parse error, a Rocq error, a timeout or a crashed coqtop ends the file (status and reason
    in the result); it never raises for a bad file."""
    t0 = time.monotonic()
    try:
        blocks = pieces(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        return FileResult(library=library, file=relpath, split=split, status="failed", reason=f"cannot read or split: {e}"), []
    rec = _Recorder(library=library, relpath=relpath, split=split)
    status: Literal["ok", "failed", "timeout"]
    sess = _ReplaySession(config.header, extra_args=config.extra_args, default_timeout=config.step_timeout,
                          header_timeout=config.file_timeout)
    progress = _Progress()
    try:
        sess.start()
        status, reason = _drive(sess, blocks, rec, config, progress)
    except SessionTimeout:
        status, reason = "timeout", f"line {progress.line}: sentence exceeded {config.step_timeout:.0f}s"
    except (SessionCrashed, SessionOutOfMemory, EOFError) as e:
        status, reason = "failed", f"line {progress.line}: coqtop stopped: {e}"
    finally:
        sess.close()
    result = FileResult(library=library, file=relpath, split=split, status=status, reason=reason,
                        sentences=progress.sent, proofs=rec.proofs, steps=len(rec.kept),
                        seconds=round(time.monotonic() - t0, 3))
    return result, rec.kept


@dataclass
class _Progress:
    """Where the replay of a file is: blocks sent, line of the current block, start time."""

    sent: int = 0
    line: int = 0
    t0: float = field(default_factory=time.monotonic)


def _drive(sess: _ReplaySession, blocks: list[Piece], rec: _Recorder, config: ReplayConfig,
           progress: _Progress) -> tuple[Literal["ok", "failed", "timeout"], str]:
    """Send every block, recording steps; stop at the first error or at the file deadline."""
    k = 0
    while k < len(blocks):
        piece = blocks[k]
        progress.line = piece.line
        if time.monotonic() - progress.t0 > config.file_timeout:
            return "timeout", f"line {piece.line}: file deadline {config.file_timeout:.0f}s reached"
        if k + 1 < len(blocks) and _PROOF_TERM.match(blocks[k + 1].text):
            # ``Proof term.`` must follow its statement with nothing between (not even the end
            # marker): both go as one block, and the proof is closed after it (no step)
            piece = Piece(text=piece.text + "\n" + blocks[k + 1].text, line=piece.line, structure=False)
            k += 1
        k += 1
        body, show = sess.send(piece.text, config.step_timeout)
        progress.sent += 1
        err = _ERROR.search(body)
        if err:
            return "failed", f"line {piece.line}: {err.group(1).strip() or 'error'}"
        rec.record(piece, parse_show(show))
    return "ok", ""


class _Recorder:
    """Turns the sequence (block, proof view after it) into steps, kept per finished proof."""

    def __init__(self, library: Library, relpath: str, split: Split):
        self.library, self.relpath, self.split = library, relpath, split
        self.view = ProofView(open=False, name="", goal=Goal())
        self.pending: list[Step] = []
        self.kept: list[Step] = []
        self.proofs = 0

    def record(self, piece: Piece, after: ProofView) -> None:
        before = self.view
        self.view = after
        if before.open and not after.open:  # the proof was closed by this sentence
            if _CLOSE_KEEP.match(piece.text.lstrip()):
                self.kept.extend(self.pending)
                self.proofs += 1
            self.pending = []
            return
        if not before.open:
            self.pending = []
            return
        if piece.structure or before.goal.closed or not is_tactic(piece.text):
            return
        self.pending.append(Step(
            library=self.library, licence=LICENCES[self.library], file=self.relpath,
            lemma=before.name, index=len(self.pending), goals_before=before.goal,
            tactic=tactic_text(piece.text), goals_after=after.goal, split=self.split,
        ))
