"""A warm Rocq session over ``coqtop -quiet -emacs`` with pipes (no pty, so no 4096-byte line limit).

Protocol facts this relies on (measured on Coq 8.16.1, see ``docs/rocq_notes.md`` of the project):
- stdout and stderr are merged into one pipe so messages and ``<prompt>NAME < N |..| 0 < </prompt>``
  come in the order coqtop wrote them; ``N`` is the state id *after* the preceding sentence.
- An error does not stop later sentences of the same block, so any error marks the outcome failed.
- A syntax error swallows the rest of its input line, so every marker goes on a line of its own.
- The end of a block is found by a marker sentence, ``Fail Check __prover_mk_<nonce>.``, whose
  answer ("The reference __prover_mk_<nonce> was not found") cannot come from anything else.
- ``BackTo N`` discards the states after ``N``. Because search branches, the ids handed out here
  are *virtual*: each is a node (parent, sentence block) in a tree; going to a node BackTo's the
  deepest shared prefix of the live coqtop history and replays the rest.
- Moving the header forward (``extend_header``, used by ``lean_tools.pool``): a header that
  extends the current one is reached by ``BackTo`` the state after the current header and
  running only the added text, so walking a file's holes in order re-executes nothing; the ids
  handed out before are invalid afterwards, and an error in the added text closes the session.
- A runaway request: SIGINT makes coqtop print ``User interrupt`` and survive (the session is
  kept and ``SessionTimeout`` raised); if it does not recover in a few seconds the process
  group is killed (the pool replaces the session).
"""

from __future__ import annotations

import itertools
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Any, Literal

from .. import sandbox
from ..procstat import ProcessTree
from ..source import ParseError, mask
from ..types import (
    CommandOutcome,
    Hole,
    InvalidRequest,
    Pos,
    ProofStatus,
    SessionCrashed,
    SessionOutOfMemory,
    SessionTimeout,
    Severity,
    TacticOutcome,
)
from . import replies
from .checker import require
from .project import load_path_args
from .replies import PROMPT

HAMMER_LIBEXEC = "/usr/libexec/coq-hammer"
"""Debian puts CoqHammer's ``htimeout`` and ``predict`` here, off ``PATH``; its ``hammer`` calls them by name."""


def _with_hammer_path(env: dict[str, str]) -> dict[str, str]:
    """coqtop's environment with ``HAMMER_LIBEXEC`` on ``PATH`` (when it exists), so that
    ``hammer`` runs in any session without the user setting anything."""
    if os.path.isdir(HAMMER_LIBEXEC) and HAMMER_LIBEXEC not in env.get("PATH", "").split(":"):
        env = {**env, "PATH": HAMMER_LIBEXEC + ":" + env.get("PATH", "")}
    return env


_HOLE_WORDS = re.compile(r"\b(admit|Admitted|give_up)\b")


def strip_comments(code: str) -> str:
    """``code`` with comments and strings blanked, offsets kept (``lean_tools.source.mask``, the
    one comment masker); an unterminated comment or string is refused as ``InvalidRequest``."""
    try:
        return mask(code, "rocq")
    except ParseError as e:
        raise InvalidRequest(f"{e} in Rocq code") from None


def validate_block(code: str) -> str:
    """Refuse blocks that would desynchronise coqtop: unterminated comments/strings, a missing final period."""
    if "\x00" in code:
        raise InvalidRequest("NUL byte in Rocq code")
    bare = strip_comments(code).rstrip()
    if not bare:
        raise InvalidRequest("empty Rocq code")
    if not bare.endswith((".", "}", "{")):
        raise InvalidRequest("Rocq code must end with a sentence terminator '.'")
    return code


def header_extension(current: str, new: str) -> str | None:
    """The text ``new`` adds to the header ``current``, or None when ``new`` does not extend it at
    a sentence boundary: ``current`` must be a prefix of ``new``, and the added text must not
    glue onto ``current``'s last sentence (``Require A.`` + ``B.`` reads ``Require A.B.``), so it
    starts with white space, or ``current`` is blank or ends in white space or a comment."""
    if not new.startswith(current):
        return None
    added = new[len(current) :]
    if not added or not current.strip() or added[0].isspace() or current[-1].isspace() or current.endswith("*)"):
        return added
    return None


@dataclass
class _Node:
    parent: int | None
    text: str
    depth: int


@dataclass(frozen=True)
class _Reply:
    body: str
    state: int  # real coqtop state after the block (before the marker)


def _marker_answer(marker: str) -> re.Pattern:
    """Coq's answer to ``Fail Check <marker>.`` up to the next prompt. It names the marker a
    "reference", or a "variable" after some failed tactics (seen after ``pose proof (Nat.foo 3)``
    failed inside a proof), so both words are accepted."""
    return re.compile(
        r"The (?:reference|variable) " + re.escape(marker) + r" was not found in the current\s+environment\..*?<prompt>.*?</prompt>",
        re.S,
    )


class RocqSession:
    """``ProofSession`` over coqtop. Not thread-safe: one user at a time (the pool guarantees it)."""

    language: Literal["rocq"] = "rocq"

    def __init__(
        self,
        header: str,
        *,
        limits: sandbox.Limits = sandbox.Limits(cpu_seconds=None, memory_bytes=4 * 1024**3),
        default_timeout: float = 30.0,
        header_timeout: float = 120.0,
        max_rss_bytes: int = 3 * 1024**3,
        coqtop: str = "coqtop",
        extra_args: tuple[str, ...] = (),
        transport: str | None = None,
    ):
        transport = transport or os.environ.get("PROVER_ROCQ_TRANSPORT") or "pipes"
        if transport not in ("pipes", "pexpect"):
            raise ValueError(f"unknown transport {transport!r} (pipes or pexpect)")
        self.transport = transport
        """How coqtop's output is read: ``pipes`` (``select`` + ``os.read`` on the pipe, the
        default) or ``pexpect`` (``pexpect.popen_spawn.PopenSpawn`` and ``expect``); when not
        given, ``$PROVER_ROCQ_TRANSPORT`` or ``pipes``. Measured in ``docs/reproducibility.md``."""
        self._child: Any = None  # the PopenSpawn of the pexpect transport (pexpect is untyped)
        self.header = header
        self.limits = limits
        self.default_timeout = default_timeout
        self.header_timeout = header_timeout
        self.max_rss_bytes = max_rss_bytes
        self.coqtop = coqtop
        self.extra_args = extra_args
        self.uses = 0
        self.needs_recycle = False
        """Set when the process grew past ``max_rss_bytes``; the pool closes it on release."""
        self.cpu_seconds = 0.0
        """CPU of the requests (``run_command``/``run_tactic``) so far, header loads and moves
        (``extend_header``) excluded."""
        self.process_cpu_seconds = 0.0
        """CPU of every coqtop process tree this ``RocqSession`` has run, header loads and moves
        included (read with psutil; final once it is closed)."""
        self._proc: subprocess.Popen | None = None
        self._close_lock = threading.Lock()
        """Held by ``close``: a session pool closed by one thread may close a session its borrower
        is closing too."""
        self._tree: ProcessTree | None = None
        self._cpu_before = 0.0
        self._buf = ""
        self._nonce = itertools.count()
        self._nodes: dict[int, _Node] = {}
        self._ids = itertools.count(1)
        self._root_real: int | None = None
        self._live: list[tuple[int, int]] = []  # [(virtual id, real state)] along coqtop's history
        self._broken = False
        self._synced = True
        self._tail = ""
        self._tmp: str | None = None
        self._load_path: tuple[str, ...] = ()
        self._valid_from = 1  # proof state ids below it were made under an earlier header

    # -- lifecycle ---------------------------------------------------------------------------
    def __enter__(self) -> RocqSession:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None and not self._broken

    def start(self) -> None:
        if self.alive():
            return
        self.close()
        exe = require(self.coqtop)
        # A private working directory: micromega writes .lia.cache/.nia.cache into the cwd.
        self._tmp = tempfile.mkdtemp(prefix="prover-coqtop-")
        self._load_path = load_path_args()
        argv = [exe, "-quiet", "-emacs", "-color", "no", *self._load_path, *self.extra_args]
        env = _with_hammer_path(sandbox.scrubbed_env(self._tmp, keep=("COQPATH", "OCAMLPATH", "COQLIB")))
        if self.transport == "pexpect":
            from pexpect.popen_spawn import PopenSpawn

            # PopenSpawn cannot start a new session itself: setsid(1) does it (the child is no
            # group leader, so setsid execs in place and the pid stays that of coqtop).
            self._child = PopenSpawn(["setsid", *sandbox.launch_argv(argv, self.limits, env["PATH"])], cwd=self._tmp,
                                     env=env, timeout=None, maxread=1 << 16, encoding="utf-8", codec_errors="replace")
            self._proc = self._child.proc
            sandbox.release(self._proc.pid, self.limits)
        else:
            self._proc = sandbox.spawn(
                argv,
                limits=self.limits,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                cwd=self._tmp,
                env=env,
                bufsize=0,
            )
        self._tree = ProcessTree(self._proc.pid)
        self._cpu_before = self.process_cpu_seconds
        self._buf = ""
        self._broken = False
        self.needs_recycle = False
        self._nodes.clear()
        self._live = []
        self._synced = True
        first = self._exchange("", timeout=self.header_timeout)  # banner + first prompt
        self._root_real = first.state
        if self.header.strip():
            validate_block(self.header)
            self._load_header_text(self.header)

    def _load_header_text(self, text: str, *, back_to: int | None = None) -> None:
        """Run header text (the whole header at start; the added part when extending, after a
        ``BackTo back_to``) under ``header_timeout``; the state after it becomes the root. An
        error in it, or a timeout, closes the session: it is never left half loaded."""
        blocks = [*([f"BackTo {back_to}."] if back_to is not None else []), text]
        try:
            reps = self._exchange_many(blocks, timeout=self.header_timeout)
        except SessionTimeout:
            self.close()
            raise
        errs = [m for rep, code in zip(reps, blocks) for m in replies.messages(rep.body, code) if m.severity is Severity.ERROR]
        if errs:
            self.close()
            raise SessionCrashed(f"Rocq header failed: {errs[0].text}")
        self._root_real = reps[-1].state
        self._live = []
        self._synced = True

    # -- moving the header forward ------------------------------------------------------------
    def can_extend(self, header: str) -> bool:
        """``extend_header(header)`` can run: the session is running, ``header`` extends its header
        at a sentence boundary (``header_extension``) and the active project's load path is the
        one it started with."""
        return self.alive() and self._load_path == load_path_args() and header_extension(self.header, header) is not None

    def extend_header(self, header: str) -> None:
        """Make ``header``, which extends the current header, the header of the session without a new
        process: ``BackTo`` the state right after the current header (discarding every search
        state), run only the added text as a header load does (same process, load path and
        sandbox, ``header_timeout``), and make the state after it the new root. Every proof state
        id handed out before is invalid afterwards (``run_tactic`` refuses it).

        Raises ``InvalidRequest`` (nothing changed) when ``header`` does not extend the current one
        or the load path changed; ``SessionCrashed``/``SessionTimeout`` when the added text fails,
        and then the session is closed (the caller starts a fresh one)."""
        added = header_extension(self.header, header)
        if added is None:
            raise InvalidRequest("the new header does not extend the session's header at a sentence boundary")
        if self._load_path != load_path_args():
            raise InvalidRequest("the active project's load path changed since the session started")
        if not self.alive():
            raise SessionCrashed("Rocq session is not running", self._tail)
        runs = bool(strip_comments(added).strip())
        if runs:
            validate_block(added)
        self._nodes.clear()
        self._valid_from = next(self._ids)
        self._live, self._synced = [], False  # the next request goes back to the root
        if runs:
            self._load_header_text(added, back_to=self._root_real)
        self.header = header

    def close(self) -> None:
        """Kill the process (its CPU charged once to ``sandbox``); safe to call again, and from
        two threads at once."""
        with self._close_lock:
            proc = self._proc
            if proc is not None:
                self._tree_cpu()
                sandbox.charge_cpu(self.process_cpu_seconds - self._cpu_before)
                sandbox.kill_group(proc)
                for f in (proc.stdin, proc.stdout):
                    try:
                        if f is not None:
                            f.close()
                    except OSError:
                        pass
            self._proc = None
            self._child = None
            self._tree = None
            if self._tmp is not None:
                shutil.rmtree(self._tmp, ignore_errors=True)
                self._tmp = None

    # -- wire ---------------------------------------------------------------------------------
    def _read_until(self, pattern: re.Pattern, deadline: float) -> str:
        """Read until ``pattern`` matches; consume through the match and return the text before it.
        Raises ``TimeoutError`` at ``deadline``, ``EOFError`` when coqtop closes its output."""
        if self._child is not None:
            return self._expect(pattern, deadline)
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        while True:
            m = pattern.search(self._buf)
            if m:
                text = self._buf[: m.start()]
                self._buf = self._buf[m.end() :]
                return text
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            r, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not r:
                if self._proc.poll() is not None:
                    raise EOFError
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise EOFError
            text = chunk.decode("utf-8", errors="replace")
            self._buf += text
            self._tail = (self._tail + text)[-4000:]

    def _expect(self, pattern: re.Pattern, deadline: float) -> str:
        import pexpect

        child = self._child
        try:
            child.expect(pattern, timeout=max(0.0, deadline - time.monotonic()))
        except pexpect.TIMEOUT:
            raise TimeoutError from None
        except pexpect.EOF:
            self._tail = (self._tail + (child.before or ""))[-4000:]
            raise EOFError from None
        self._tail = (self._tail + child.before + child.after)[-4000:]
        return child.before

    def _clear_input(self) -> None:
        """Forget what was read but not consumed."""
        self._buf = ""
        if self._child is not None:
            self._child.buffer = ""

    def _exchange(self, block: str, *, timeout: float) -> _Reply:
        """Send ``block`` then a marker; return the text before the marker and the state after ``block``."""
        return self._exchange_many([block], timeout=timeout)[0]

    def _exchange_many(self, blocks: list[str], *, timeout: float) -> list[_Reply]:
        """Pipeline several blocks, each followed by its own marker, in one write and one read.

        One round trip instead of one per block: a warm check is then dominated by Rocq's own work.
        """
        if not self.alive():
            raise SessionCrashed("Rocq session is not running", self._tail)
        markers = [f"__prover_mk_{os.getpid()}_{next(self._nonce)}" for _ in blocks]
        payload = "".join((b + "\n" if b else "") + f"Fail Check {mk}.\n" for b, mk in zip(blocks, markers))
        t0 = time.monotonic()
        try:
            if self._child is not None:
                self._child.send(payload)
            else:
                stdin = self._proc.stdin if self._proc is not None else None
                if stdin is None:
                    raise BrokenPipeError("coqtop is not running")
                stdin.write(payload.encode("utf-8"))
                stdin.flush()
        except (BrokenPipeError, OSError) as e:
            self._fail_dead()
            raise SessionCrashed(f"coqtop closed its input: {e}", self._tail) from None
        replies: list[_Reply] = []
        for mk in markers:
            end = _marker_answer(mk)
            try:
                text = self._read_until(end, t0 + timeout)
            except TimeoutError:
                self._interrupt(_marker_answer(markers[-1]))
                raise SessionTimeout(f"Rocq request exceeded {timeout:.1f}s") from None
            except EOFError:
                self._fail_dead()
                raise
            # The marker's own "The command has indeed failed with message:" line precedes it.
            text = re.sub(r"The command has indeed failed with message:\s*$", "", text)
            prompts = list(PROMPT.finditer(text))
            if prompts:
                state = int(prompts[-1].group("state"))
            else:
                state = replies[-1].state if replies else (self._live[-1][1] if self._live else (self._root_real or 1))
            replies.append(_Reply(body=text, state=state))
        self._rss_check()
        return replies

    def _fail_dead(self) -> None:
        rc = self._proc.poll() if self._proc else None
        tail = self._tail
        self._broken = True
        self.close()
        if rc in (-signal.SIGKILL, 137) or "out of memory" in tail.lower():
            raise SessionOutOfMemory(f"coqtop was killed (exit {rc}), likely out of memory")
        raise SessionCrashed(f"coqtop died (exit {rc})", tail)

    def _interrupt(self, end: re.Pattern) -> None:
        """SIGINT the runaway sentence; keep the session if it resynchronises, else kill it."""
        try:
            # coqtop notices SIGINT between reduction steps; a long C-level step (vm_compute,
            # an external prover) may need a second one.
            for wait in (2.0, 4.0):
                if self._proc is None:
                    raise EOFError
                os.kill(self._proc.pid, signal.SIGINT)
                try:
                    self._read_until(end, time.monotonic() + wait)
                    break
                except TimeoutError:
                    continue
            else:
                raise TimeoutError
            self._clear_input()
            self._synced = False  # history position unknown now: force a BackTo on next use
        except (TimeoutError, EOFError, OSError):
            self._broken = True
            self.close()

    def _rss_check(self) -> None:
        """One reading of the process tree after each exchange: memory watch and CPU total."""
        if self._tree is None:
            return
        rss, cpu = self._tree.usage()
        self.process_cpu_seconds = self._cpu_before + cpu
        if rss > self.max_rss_bytes:
            self.needs_recycle = True  # keep serving this user; the pool recycles us

    def _tree_cpu(self) -> float:
        """CPU seconds of all coqtop trees of this ``RocqSession`` so far (updates ``process_cpu_seconds``)."""
        if self._tree is not None:
            self.process_cpu_seconds = self._cpu_before + self._tree.usage()[1]
        return self.process_cpu_seconds

    # -- virtual states -----------------------------------------------------------------------
    def _goto_blocks(self, vid: int | None) -> tuple[list[str], list[int | None]]:
        """Blocks that bring coqtop to virtual node ``vid``: maybe a BackTo, then replays.

        Returns the blocks and, per block, the node it creates (None for the BackTo).
        """
        path: list[int] = []
        v = vid
        while v is not None:
            path.append(v)
            v = self._nodes[v].parent
        path.reverse()
        k = 0
        while k < len(path) and k < len(self._live) and self._live[k][0] == path[k]:
            k += 1
        blocks: list[str] = []
        made: list[int | None] = []
        if not (self._synced and k == len(self._live)):
            target_real = self._live[k - 1][1] if k else self._root_real
            blocks.append(f"BackTo {target_real}.")
            made.append(None)
            self._live = self._live[:k]
        for node_id in path[k:]:
            blocks.append(self._nodes[node_id].text)
            made.append(node_id)
        return blocks, made

    def _run_block(self, parent: int | None, block: str, timeout: float | None) -> tuple[int, str, str, float]:
        validate_block(block)
        timeout = timeout or self.default_timeout
        if not self.alive():
            if parent is not None:
                tail = self._tail
                self.close()
                self._nodes.clear()
                raise SessionCrashed("coqtop is not running; its proof states are lost", tail)
            self.start()
        t0 = time.monotonic()
        blocks, made = self._goto_blocks(parent)
        self._synced = False  # until the replies are in
        replies = self._exchange_many([*blocks, block, "Show."], timeout=timeout)
        for node_id, rep in zip(made, replies):
            if node_id is not None:
                self._live.append((node_id, rep.state))
        vid = next(self._ids)
        self._nodes[vid] = _Node(parent, block, (self._nodes[parent].depth + 1) if parent else 1)
        rep, show = replies[-2], replies[-1]
        self._live.append((vid, show.state))  # Show advances the state id; it is equivalent
        self._synced = True
        self.uses += 1
        return vid, rep.body, show.body, time.monotonic() - t0

    # -- parsing ------------------------------------------------------------------------------
    @staticmethod
    def _holes(code: str) -> list[Hole]:
        bare = strip_comments(code)
        holes = []
        for m in _HOLE_WORDS.finditer(bare):
            line = bare.count("\n", 0, m.start()) + 1
            col = m.start() - (bare.rfind("\n", 0, m.start()) + 1)
            holes.append(Hole(goal=f"<{m.group(1)}>", pos=Pos(line=line, column=col)))
        return holes

    def _timed_block(self, parent: int | None, block: str, timeout: float | None) -> tuple[int, str, str, float]:
        """``_run_block``; a request that raises is not charged to ``cpu_seconds`` (as before the
        per-process accounting), so the next request starts from a fresh reading."""
        try:
            return self._run_block(parent, block, timeout)
        except BaseException:
            self._tree_cpu()
            raise

    # -- protocol -----------------------------------------------------------------------------
    def run_command(self, code: str, *, timeout: float | None = None) -> CommandOutcome:
        t_cpu = self.process_cpu_seconds  # refreshed by the last exchange; coqtop idles in between
        vid, body, show, wall = self._timed_block(None, code, timeout)
        msgs = tuple(replies.messages(body, code))
        goals, open_proof = replies.goals(show)
        holes = self._holes(code)
        if open_proof:
            holes.append(Hole(goal="\n\n".join(goals) if goals else "", state=vid))
        cpu = max(0.0, self.process_cpu_seconds - t_cpu)
        self.cpu_seconds += cpu
        return CommandOutcome(env=vid, messages=msgs, holes=tuple(holes), goals=goals, cpu_seconds=cpu, wall_seconds=wall)

    def run_tactic(self, state: int, tactic: str, *, timeout: float | None = None) -> TacticOutcome:
        if state not in self._nodes:
            if state < self._valid_from:
                raise InvalidRequest(f"proof state {state} was made before the session's header was extended; it is gone")
            raise InvalidRequest(f"unknown proof state {state}")
        t_cpu = self.process_cpu_seconds  # refreshed by the last exchange; coqtop idles in between
        vid, body, show, wall = self._timed_block(state, tactic, timeout)
        self.cpu_seconds += max(0.0, self.process_cpu_seconds - t_cpu)
        msgs = tuple(replies.messages(body, tactic)) + replies.infos(body)
        goals, open_proof = replies.goals(show)
        holes = tuple(self._holes(tactic))
        if any(m.severity is Severity.ERROR for m in msgs):
            status = ProofStatus.ERROR
        elif holes:
            status = ProofStatus.CONTAINS_SORRY
        elif not open_proof:
            status = ProofStatus.COMPLETED  # the block closed the proof itself (Qed.)
        else:
            status = ProofStatus.OPEN_GOALS if goals else ProofStatus.COMPLETED
        return TacticOutcome(state=vid, goals=goals, messages=msgs, holes=holes, status=status, wall_seconds=wall)

