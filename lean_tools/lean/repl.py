"""``LeanReplSession``: one long-lived Lean REPL process behind the ``ProofSession`` protocol.

Process: ``lake env <repl>`` (``LeanReplConfig.repl_argv``) in ``lean_project/`` (in a user's
Lake project root with ``project=``: ``lean_tools.lean.project``), over pipes
(never a pty: a pty truncates lines over 4096 bytes), in its own process group with
``RLIMIT_AS`` (set by ``lean_tools.sandbox.spawn`` before the REPL runs), a scrubbed environment and a private HOME.
stdout is read on a thread into a queue; stderr is drained on another thread into a tail.

Per request: write ``request.to_wire()``; read lines until the blank line that ends a
response; a wall-clock deadline per request (the REPL has none of its own). While waiting,
the resident memory of the whole process tree is read with psutil (``lean_tools.procstat``).
- deadline passed -> the group is SIGKILLed -> ``SessionTimeout``;
- RSS over ``max_rss_bytes`` -> killed -> ``SessionOutOfMemory``;
- EOF / exit -> ``SessionCrashed`` with the stderr tail (exit 137 / SIGKILL: ``SessionOutOfMemory``);
- a response that is not REPL JSON -> killed -> ``SessionCrashed``.
After any of these the next request respawns the process and replays the replay log (the
version probe and the header; with ``replay="all"`` every answered request, checking that
the ids come out the same, so old proof-state ids stay valid).

Header: sent once as a command without ``env``; its env id (0 in a fresh process) is the
base of every ``run_command``. A header with errors raises ``InvalidRequest``.
- ``prelude_mode="env"`` (default): the whole header lives in the base env. No shift is
  needed: the REPL reports positions relative to each command's own text (recorded traffic:
  a command sent on env 0 after a multi-line header still gets line-1 positions).
- ``prelude_mode="prepend"``: only the imports go into the base env; the rest of the header
  (``open``/``set_option``...) is prepended to every command, positions are shifted back past
  those lines, and messages inside them lose their position.
Before the header, ``#eval Lean.versionString`` is sent (``probe_version``) so a REPL built
for another Lean is refused (``VersionMismatch``); the static check of ``lean-toolchain``
and ``lake-manifest.json`` runs before spawning.

Not covered: info trees, per-request CPU limits (one process serves many requests; the
wall clock and the RSS watch are the limits), pickling helpers beyond ``send()``.

Requests are validated before they are sent (``lean_tools.lean.protocol``), and a tactic on
a proof-state id this process never produced is refused with ``InvalidRequest``.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import tempfile
import threading
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from .. import sandbox
from ..types import (
    CommandOutcome,
    InvalidRequest,
    NotInstalled,
    SessionCrashed,
    SessionOutOfMemory,
    SessionTimeout,
    TacticOutcome,
    VersionMismatch,
)
from . import protocol as P
from . import versions
from .process import Eof, ReplProcess
from .project import LeanProject, ReplCommand, check_toolchain, own_repl_binary

log = logging.getLogger(__name__)
INSTALL_HINT = versions.SETUP_HINT
VERSION_PROBE = "#eval Lean.versionString"
_GIB = 1024**3


def default_project_dir() -> Path:
    """``$PROVER_LEAN_PROJECT`` or the repository's ``lean_project/``."""
    env = os.environ.get("PROVER_LEAN_PROJECT")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "lean_project"


class LeanReplConfig(BaseModel):
    """How to run the REPL. Load from TOML with ``LeanReplConfig.from_toml(path)``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    project_dir: str | None = None
    """Lake project (lean-toolchain, lake-manifest.json); None -> ``default_project_dir()``."""
    repl_argv: tuple[str, ...] = ("lake", "env", ".lake/packages/REPL/.lake/build/bin/repl")
    """Command line of the REPL, run in ``cwd``."""
    cwd: str | None = None
    """Working directory; None -> ``project_dir``."""
    default_timeout: float = 60.0
    """Wall-clock seconds per request when the caller gives none."""
    start_timeout: float = 900.0
    """Seconds for the version probe and the header (importing Mathlib is slow)."""
    memory_bytes: int | None = 16 * _GIB
    """RLIMIT_AS of the process. It counts the mmapped Mathlib .olean files: too low breaks import."""
    max_rss_bytes: int | None = 12 * _GIB
    """Kill the group when its resident memory passes this (None: no watch)."""
    poll_seconds: float = 0.25
    """How often the RSS watch looks while waiting for a response."""
    isolate_network: bool = True
    """Empty network namespace where the OS allows it."""
    check_versions: bool = True
    """Refuse to start when toolchain, Mathlib and REPL versions disagree."""
    probe_version: bool = True
    """Ask the running REPL for ``Lean.versionString`` before loading the header."""
    prelude_mode: Literal["env", "prepend"] = "env"
    """"env": whole header in the base env. "prepend": imports in the env, the rest prepended."""
    replay: Literal["header", "all"] = "header"
    """What a respawn replays: the header only (old proof states become invalid) or everything."""
    validate_states: bool = True
    """Refuse tactics on proof-state ids this process never returned."""
    env_keep: tuple[str, ...] = ("ELAN_HOME", "ELAN_TOOLCHAIN", "LEAN_PATH", "LEAN_SYSROOT", "LAKE_HOME")
    """Environment variables passed through to the REPL."""
    stderr_tail_chars: int = 8000
    """How much of stderr to keep for crash reports."""

    @classmethod
    def from_toml(cls, path: str | Path, section: str | None = "lean") -> LeanReplConfig:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        if section is not None:
            data = data.get(section, {})
        return cls.model_validate(data)

    def resolved_project_dir(self) -> Path:
        return Path(self.project_dir) if self.project_dir else default_project_dir()


def split_header(header: str) -> tuple[str, str]:
    """(imports, prelude): the leading ``import`` lines (with the comments among them) and the rest.

    Block comments inside the import zone are not understood; put them after the imports.
    """
    lines = header.split("\n")
    last_import = -1
    for i, line in enumerate(lines):
        s = line.strip()
        if s.startswith("import "):
            last_import = i
        elif s and not s.startswith("--"):
            break
    imports = "\n".join(lines[: last_import + 1]).strip("\n")
    prelude = "\n".join(lines[last_import + 1 :]).strip("\n")
    return imports, prelude


class LeanReplSession:
    """A ``ProofSession`` over the Lean REPL. See the module docstring for the contract."""

    language: Literal["lean"] = "lean"

    def __init__(
        self,
        header: str,
        *,
        config: LeanReplConfig | None = None,
        limits: sandbox.Limits | None = None,
        default_timeout: float | None = None,
        project: LeanProject | None = None,
    ):
        """``project``: a user's Lake project (``lean_tools.lean.project``); the REPL then runs as
        ``lake env <repl>`` in its root, and its ``lean-toolchain`` is checked before starting."""
        self.header = header
        self.config = config or LeanReplConfig()
        if default_timeout is not None:
            self.config = self.config.model_copy(update={"default_timeout": default_timeout})
        self.project = project
        self._repl_project: str | None = None
        if project is not None:
            cmd = repl_command(project, self.config)
            self.config = self.config.model_copy(update={"repl_argv": cmd.argv, "cwd": cmd.cwd, "project_dir": project.root})
            self._repl_project = cmd.repl_project
        self.limits = limits or sandbox.Limits(
            cpu_seconds=None,  # a session lives long; the per-request wall clock is the limit
            memory_bytes=self.config.memory_bytes,
            open_files=None,  # inherit: importing Mathlib opens thousands of .olean files
            isolate_network=self.config.isolate_network,
        )
        self.uses = 0
        self.restarts = 0
        self.lean_version: str | None = None
        self.header_env: int | None = None
        self.header_outcome: CommandOutcome | None = None
        self._proc: ReplProcess | None = None
        self._home: tempfile.TemporaryDirectory | None = None
        self._healthy = False
        self._lock = threading.RLock()
        self._log: list[tuple[P.Request, tuple[str, int]]] = []
        self._states: set[int] = set()
        imports, prelude = split_header(header)
        if self.config.prelude_mode == "prepend" and prelude:
            self._header_cmd, self._prelude = imports, prelude
            self._line_offset = prelude.count("\n") + 1
        else:
            self._header_cmd, self._prelude, self._line_offset = header, "", 0

    # --- lifecycle ---------------------------------------------------------------------------

    def _environment(self) -> dict[str, str]:
        assert self._home is not None
        env = sandbox.scrubbed_env(self._home.name, self.config.env_keep)
        elan_home = os.environ.get("ELAN_HOME") or str(Path.home() / ".elan")
        if Path(elan_home).is_dir():
            env.setdefault("ELAN_HOME", elan_home)
            env["PATH"] = str(Path(elan_home) / "bin") + os.pathsep + env["PATH"]
        return env

    def _check_installed(self, env: dict[str, str], cwd: Path) -> list[str]:
        argv = list(self.config.repl_argv)
        if not argv:
            raise InvalidRequest("repl_argv is empty")
        exe = argv[0] if "/" in argv[0] else shutil.which(argv[0], path=env["PATH"])
        if exe is None or not Path(cwd, exe).exists():
            raise NotInstalled(argv[0], INSTALL_HINT)
        argv[0] = str(Path(cwd, exe))
        if len(argv) > 2 and Path(argv[0]).name == "lake" and argv[1] == "env" and "/" in argv[2] and not Path(cwd, argv[2]).exists():
            raise NotInstalled(f"Lean REPL binary {argv[2]}", INSTALL_HINT)
        return argv

    def start(self) -> None:
        """Spawn, check versions, load the header. Idempotent while healthy."""
        with self._lock:
            if self._proc is not None and self._healthy and self._proc.alive():
                return
            self._spawn_and_replay()

    def _spawn_and_replay(self) -> None:
        self._kill()
        project = self.config.resolved_project_dir()
        cwd = Path(self.config.cwd) if self.config.cwd else project
        if not cwd.is_dir():
            raise NotInstalled(f"Lean project directory {cwd}", INSTALL_HINT)
        if self.config.check_versions:
            if self.project is not None and self._repl_project is not None:
                check_toolchain(self.project, self._repl_project)
            versions.check(project)
        if self._home is None:
            self._home = tempfile.TemporaryDirectory(prefix="lean-repl-home-")
        env = self._environment()
        argv = self._check_installed(env, cwd)
        try:
            self._proc = ReplProcess(argv, str(cwd), env, self.limits, self.config.stderr_tail_chars)
        except OSError as e:
            raise NotInstalled(argv[0], f"{e}; {INSTALL_HINT}") from None
        if self._log:
            self.restarts += 1
            self._replay()
        else:
            self._first_load()
        self._healthy = True

    def _first_load(self) -> None:
        timeout = self.config.start_timeout
        replay_log: list[tuple[P.Request, tuple[str, int]]] = []
        if self.config.probe_version:
            probe = P.Command(cmd=VERSION_PROBE)
            resp = self._exchange(probe, timeout)
            text = resp.message if isinstance(resp, P.ErrorResponse) else " ".join(m.data for m in resp.messages)
            self.lean_version = versions.parse_version_string(text)
            if self.lean_version is None:
                # Could not read it: not evidence of a mismatch; the static check still ran.
                log.warning("cannot read the Lean REPL's version from %r", text[:200])
            elif self.config.check_versions:
                try:
                    versions.check(self.config.resolved_project_dir(), repl_reported=self.lean_version)
                except VersionMismatch:
                    self._kill()
                    raise
            if isinstance(resp, P.CommandResponse):
                replay_log.append((probe, ("env", resp.env)))
        header = P.Command(cmd=self._header_cmd)
        resp = self._exchange(header, timeout)
        if not isinstance(resp, P.CommandResponse):
            self._kill()
            detail = resp.message if isinstance(resp, P.ErrorResponse) else "a tactic response to a command"
            raise InvalidRequest(f"the header does not load: {detail}")
        outcome = P.to_command_outcome(resp)
        if not outcome.ok:
            self._kill()
            raise InvalidRequest(f"the header does not elaborate: {outcome.errors[0].text}")
        self.header_env = resp.env
        self.header_outcome = outcome
        replay_log.append((header, ("env", resp.env)))
        self._log = replay_log
        self._note_states(resp)

    def _replay(self) -> None:
        """Resend the log to a fresh process; ids must come out as before."""
        self._states.clear()
        for req, (key, expected) in self._log:
            resp = self._exchange(req, self.config.start_timeout)
            got = getattr(resp, "env" if key == "env" else "proof_state", None)
            if got != expected:
                self._kill()
                raise SessionCrashed(f"replay after restart diverged: {key} {got} instead of {expected} for {req}")
            self._note_states(resp)

    def restart(self) -> None:
        """Kill and respawn now, replaying the log (see ``LeanReplConfig.replay``)."""
        with self._lock:
            self._spawn_and_replay()

    def _kill(self) -> None:
        self._healthy = False
        if self._proc is not None:
            self._proc.kill()
            self._proc = None

    def close(self) -> None:
        """Kill the process group and remove the private HOME. Idempotent."""
        with self._lock:
            self._kill()
            if self._home is not None:
                self._home.cleanup()
                self._home = None

    def alive(self) -> bool:
        return self._proc is not None and self._healthy and self._proc.alive()

    def __enter__(self) -> LeanReplSession:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:  # a forgotten session must not leave a Lean process behind
        try:
            if self._proc is not None:
                self._proc.kill()
        except Exception:  # noqa: BLE001 - at interpreter exit anything may be half torn down
            pass

    # --- requests ----------------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """Pid (= process-group id) of the running process."""
        return self._proc.proc.pid if self._proc is not None else None

    def _cpu(self) -> float:
        """CPU seconds used so far by the live processes of the group (0 when none)."""
        return self._proc.usage()[1] if self._proc is not None else 0.0

    def _ensure_running(self) -> None:
        if not self.alive():
            self._spawn_and_replay()

    def _watch(self) -> None:
        if self.config.max_rss_bytes is None or self._proc is None:
            return
        rss, _ = self._proc.usage()
        if rss > self.config.max_rss_bytes:
            self._proc.kill()
            raise SessionOutOfMemory(
                f"REPL resident memory {rss / _GIB:.2f} GiB over {self.config.max_rss_bytes / _GIB:.2f} GiB; killed"
            )

    def _exchange(self, req: P.Request, timeout: float) -> P.AnyResponse:
        """Write one request, read one response. Every failure kills the process."""
        wire = req.to_wire()
        proc = self._proc
        assert proc is not None
        self._healthy = False
        try:
            proc.write(wire)
            text = proc.read_block(time.monotonic() + timeout, self.config.poll_seconds, self._watch)
        except TimeoutError:
            self._kill()
            raise SessionTimeout(f"Lean REPL gave no answer within {timeout:g}s; process group killed") from None
        except SessionOutOfMemory:
            self._kill()
            raise
        except Eof:
            try:
                rc = proc.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                rc = None
            tail = proc.stderr_tail(wait=1.0)
            self._kill()
            if rc in (137, -9) or (rc is not None and rc != 0 and sandbox.looks_out_of_memory(rc, tail)):
                raise SessionOutOfMemory(
                    f"Lean REPL killed (exit {rc}), most likely out of memory\n{tail[-2000:]}"
                ) from None
            raise SessionCrashed(f"Lean REPL exited (code {rc}) during a request", tail) from None
        try:
            resp = P.parse_response_text(text)
        except P.ProtocolError as e:
            tail = proc.stderr_tail()
            self._kill()
            raise SessionCrashed(f"Lean REPL broke the protocol: {e}", tail) from None
        self._healthy = True
        return resp

    def _note_states(self, resp: P.AnyResponse) -> None:
        if isinstance(resp, P.TacticResponse):
            self._states.add(resp.proof_state)
        if isinstance(resp, (P.CommandResponse, P.TacticResponse)):
            self._states.update(s.proof_state for s in resp.sorries if s.proof_state is not None)
        if isinstance(resp, P.CommandResponse):
            self._states.update(t.proof_state for t in resp.tactics if t.proof_state is not None)

    def send(self, req: P.Request, *, timeout: float | None = None, log: bool | None = None) -> P.AnyResponse:
        """Send any validated request (pickling etc.) and return the typed response.

        ``log``: keep it in the replay log (default: when ``replay == "all"``).
        Unknown env / proof-state answers raise ``InvalidRequest``.
        """
        with self._lock:
            self._ensure_running()
            resp = self._exchange(req, timeout if timeout is not None else self.config.default_timeout)
            if isinstance(resp, P.ErrorResponse) and resp.unknown_id:
                raise InvalidRequest(f"the REPL does not know this id: {resp.message} ({req.to_json_dict()})")
            self._note_states(resp)
            if (self.config.replay == "all" if log is None else log) and not isinstance(resp, P.ErrorResponse):
                key = ("env", resp.env) if isinstance(resp, P.CommandResponse) else ("proofState", resp.proof_state)
                self._log.append((req, key))
            return resp

    def run_command(self, code: str, *, timeout: float | None = None) -> CommandOutcome:
        """Elaborate ``code`` against the header env; positions are relative to ``code``."""
        text = f"{self._prelude}\n{code}" if self._prelude else code
        with self._lock:
            self._ensure_running()
            try:
                req = P.Command(cmd=text, env=self.header_env)
            except ValidationError as e:
                raise InvalidRequest(f"invalid command: {_first_error(e)}") from None
            t0, cpu0 = time.monotonic(), self._cpu()
            resp = self.send(req, timeout=timeout)
            self.uses += 1
            if isinstance(resp, P.TacticResponse):
                raise SessionCrashed(f"Lean REPL answered a command with a tactic response: {resp}")
            out = P.to_command_outcome(resp, line_offset=self._line_offset, wall_seconds=time.monotonic() - t0)
            return out.model_copy(update={"cpu_seconds": max(0.0, self._cpu() - cpu0)})

    def run_tactic(self, state: int, tactic: str, *, timeout: float | None = None) -> TacticOutcome:
        """Run ``tactic`` on proof state ``state`` (a Hole's ``state`` or an earlier outcome's)."""
        with self._lock:
            self._ensure_running()
            try:
                req = P.Tactic(tactic=tactic, proof_state=state)
            except ValidationError as e:
                raise InvalidRequest(f"invalid tactic request: {_first_error(e)}") from None
            if self.config.validate_states and state not in self._states:
                raise InvalidRequest(
                    f"proof state {state} does not exist in this REPL process (restarts: {self.restarts})"
                )
            t0 = time.monotonic()
            resp = self.send(req, timeout=timeout)
            self.uses += 1
            if isinstance(resp, P.CommandResponse):
                raise SessionCrashed(f"Lean REPL answered a tactic with a command response: {resp}")
            return P.to_tactic_outcome(resp, wall_seconds=time.monotonic() - t0)


def _first_error(e: ValidationError) -> str:
    errs = e.errors()
    return errs[0]["msg"] if errs else str(e)


def dump_replay_log(session: LeanReplSession) -> str:
    """The replay log as JSON lines (for debugging a diverging replay)."""
    return "\n".join(json.dumps({"request": r.to_json_dict(), key: v}) for r, (key, v) in session._log)


def _absolute_args(args: Sequence[str], base: Path) -> tuple[str, ...]:
    """``args`` with each relative path (an argument with a ``/`` that is not an option) made
    absolute against ``base``, so it names the same file from another working folder."""
    return tuple(str(base / a) if "/" in a and not a.startswith("-") and not Path(a).is_absolute() else a for a in args)


def repl_command(project: LeanProject, base: LeanReplConfig | None = None) -> ReplCommand:
    """``lake env <repl>`` in ``project.root``. ``<repl>`` is the project's own REPL when built
    (``own_repl_binary``), else ``base.repl_argv`` without its leading ``lake env`` (the installed
    REPL by default), its relative paths made absolute against ``base``'s working folder."""
    base = base or LeanReplConfig()
    own = own_repl_binary(project)
    if own is not None:
        return ReplCommand(argv=("lake", "env", str(own)), cwd=project.root, repl_project=project.root)
    installed = base.resolved_project_dir().resolve()
    base_cwd = Path(base.cwd).resolve() if base.cwd else installed
    rest = list(base.repl_argv)
    if len(rest) >= 2 and Path(rest[0]).name == "lake" and rest[1] == "env":
        rest = rest[2:]
    return ReplCommand(argv=("lake", "env", *_absolute_args(rest, base_cwd)), cwd=project.root, repl_project=str(installed))


def repl_config(project: LeanProject, base: LeanReplConfig | None = None) -> LeanReplConfig:
    """``base`` with ``repl_argv``, ``cwd`` and ``project_dir`` set from ``repl_command``, for code
    that builds sessions from a config alone (a pool). Such a session checks the project's
    ``lean-toolchain`` and manifest, and the REPL's reported Lean version, when it starts; the
    earlier ``check_toolchain`` against the REPL's build folder runs with
    ``LeanReplSession(project=...)`` only."""
    base = base or LeanReplConfig()
    cmd = repl_command(project, base)
    return base.model_copy(update={"repl_argv": cmd.argv, "cwd": cmd.cwd, "project_dir": project.root})
