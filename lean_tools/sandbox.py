"""Process sandbox for proof checkers, proof-assistant sessions and the Python tool.

What is isolated:
- CPU time (RLIMIT_CPU) and address space (RLIMIT_AS), file size (RLIMIT_FSIZE), open
  files, core dumps off; a wall-clock timeout kills the whole process group.
- Working directory: a private temporary directory, removed afterwards.
- Environment: scrubbed to PATH, HOME (the private dir), LANG and what the tool needs.
- Network: a fresh, empty network namespace (``unshare(CLONE_NEWNET)``) when the OS allows it
  (root or user namespaces); otherwise the process keeps the host network and
  ``network_isolated()`` says so.

What is not isolated: the file system outside the working directory is readable (the proof
assistant needs its libraries) and writable where the user may write; no seccomp filter.
The proof text itself is screened for IO/code-loading commands before it gets here
(``lean_tools.soundness``), which is the main line of defence.
"""

from __future__ import annotations

import ctypes
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

CLONE_NEWNET = 0x40000000


@dataclass(frozen=True)
class Limits:
    cpu_seconds: int | None = 120
    memory_bytes: int | None = 4 * 1024**3
    file_bytes: int | None = 256 * 1024**2
    open_files: int | None = 1024
    isolate_network: bool = True


@dataclass(frozen=True)
class RunResult:
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    out_of_memory: bool
    cpu_seconds: float
    wall_seconds: float
    extra: dict = field(default_factory=dict)


def _libc():
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover
        return None


@lru_cache(maxsize=1)
def network_isolated() -> bool:
    """Whether child processes can be put in an empty network namespace here."""
    try:
        r = subprocess.run(
            ["python3", "-c", "import ctypes,sys; sys.exit(0 if ctypes.CDLL(None).unshare(0x40000000)==0 else 1)"],
            capture_output=True,
            timeout=10,
        )
        return r.returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def preexec_fn(limits: Limits):
    """Build a preexec function: new session (process group), rlimits, empty netns."""

    isolate = limits.isolate_network and network_isolated()

    def _apply() -> None:
        os.setsid()
        if limits.cpu_seconds is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 5))
        if limits.memory_bytes is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        if limits.file_bytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
        if limits.open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if isolate:
            libc = _libc()
            if libc is not None:
                libc.unshare(CLONE_NEWNET)

    return _apply


def scrubbed_env(home: str | os.PathLike, keep: tuple[str, ...] = ()) -> dict[str, str]:
    """A minimal environment: PATH, HOME, LANG, plus the named variables if set."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TMPDIR": str(home),
    }
    for k in keep:
        if k in os.environ:
            env[k] = os.environ[k]
    return env


def kill_group(proc: subprocess.Popen | int) -> None:
    """SIGKILL a child's whole process group (it was started with setsid)."""
    pid = proc if isinstance(proc, int) else proc.pid
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if not isinstance(proc, int):
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass


def children_cpu_seconds() -> float:
    """User+system CPU of this process's waited-for children so far (diff two readings)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def looks_out_of_memory(returncode: int, stderr: str) -> bool:
    """A failed process that was SIGKILLed (the kernel's OOM killer, RLIMIT_AS aborts) or said so itself.

    Only consulted for a non-zero exit: a successful run may print words such as "stack
    overflow" in an ordinary warning (Coq's large-numeral warning does).
    """
    if returncode == 0:
        return False
    text = stderr[-4000:].lower()
    return returncode in (137, -9) or any(
        w in text for w in ("out of memory", "cannot allocate memory", "memoryerror", "std::bad_alloc")
    )


def run(
    argv: list[str],
    *,
    files: dict[str, str] | None = None,
    stdin: str | None = None,
    timeout: float = 60.0,
    limits: Limits = Limits(),
    env_keep: tuple[str, ...] = (),
    cwd: str | os.PathLike | None = None,
) -> RunResult:
    """Run ``argv`` sandboxed in a fresh private directory holding ``files``.

    Never raises for the child's failure; raises FileNotFoundError if argv[0] is missing.
    """
    if shutil.which(argv[0]) is None and not Path(argv[0]).exists():
        raise FileNotFoundError(argv[0])
    with tempfile.TemporaryDirectory(prefix="prover-sbx-") as tmp:
        for name, text in (files or {}).items():
            p = Path(tmp) / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text, encoding="utf-8")
        before = children_cpu_seconds()
        t0 = time.monotonic()
        proc = subprocess.Popen(
            argv,
            cwd=str(cwd or tmp),
            env=scrubbed_env(tmp, env_keep),
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=preexec_fn(limits),
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        timed_out = False
        try:
            out, err = proc.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            kill_group(proc)
            out, err = proc.communicate()
        except BaseException:  # Ctrl-C or a cancelled caller: never leave the checker running
            kill_group(proc)
            raise
        else:
            kill_group(proc)  # stray grandchildren
        wall = time.monotonic() - t0
        rc = proc.returncode
        cpu_limit_hit = rc in (-signal.SIGXCPU, -signal.SIGKILL) and limits.cpu_seconds is not None and not timed_out
        return RunResult(
            returncode=rc,
            stdout=out or "",
            stderr=err or "",
            timed_out=timed_out or (cpu_limit_hit and rc == -signal.SIGXCPU),
            out_of_memory=(not timed_out) and looks_out_of_memory(rc, err or ""),
            cpu_seconds=children_cpu_seconds() - before,
            wall_seconds=wall,
        )
