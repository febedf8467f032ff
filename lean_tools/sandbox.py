"""Process sandbox for proof checkers, proof-assistant sessions and the Python tool.

Every child is started by ``spawn`` the same way, with no Python code run in the child
between ``fork`` and ``exec`` (no ``preexec_fn``, which Python documents as unsafe in a
threaded program, and the prover's checks run from thread pools):

1. ``subprocess.Popen(..., start_new_session=True)`` runs ``/bin/sh -c 'kill -STOP $$; exec "$@"'``:
   the child is the leader of a new session and process group, and stops itself at once.
2. The parent waits (``os.waitid(..., WSTOPPED | WNOWAIT)``) until it is stopped, applies the
   limits with ``resource.prlimit(pid, ...)``, and sends ``SIGCONT``.
3. The shell ``exec``s the network wrapper (``unshare``, below) which ``exec``s the program:
   the pid stays the same, and the limits were in place before the program ran one instruction.
   This closes the race of "spawn, then prlimit": nothing of the program runs unlimited.

What is isolated:
- CPU time (``RLIMIT_CPU``), address space (``RLIMIT_AS``), file size (``RLIMIT_FSIZE``), open
  files (``RLIMIT_NOFILE``); core dumps off. A wall-clock timeout kills the whole process group.
- Network: with ``Limits.isolate_network`` and where the OS allows it, the program runs in a
  fresh network namespace (``unshare --net``; as a non-root user ``unshare --net
  --map-current-user``, a user namespace mapping only the caller's own uid) holding only a
  loopback interface that is down: no connection to any host, including this one's
  ``localhost`` services, and no abstract Unix sockets of the host. It also gets a fresh
  System V IPC namespace (``--ipc``: no shared memory or semaphores of other processes).
  ``network_isolated()`` says whether this works here; where it does not (no ``unshare``, no
  privilege, user namespaces disabled) the program keeps the host network.
- Working directory: a private temporary directory, removed afterwards (``run``).
- Environment: scrubbed to PATH, HOME (the private dir), LANG, TMPDIR and what the tool needs.

What is not isolated: the file system outside the working directory is readable (the proof
assistant needs its libraries) and writable where the user may write; processes, pids and
the host's mounts are visible; no seccomp filter. The proof text itself is screened for
IO/code-loading commands before it gets here (``lean_tools.soundness``), which is the main
line of defence.

CPU accounting is per process: ``run`` reaps its child with ``os.wait4`` and reports that
child's own rusage (its waited-for descendants included), never ``RUSAGE_CHILDREN``, which
sums the children of every thread of this process. Long-lived sessions read their process
tree with ``lean_tools.procstat`` (psutil) and charge it to ``charge_cpu`` when they close.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

_STOP_STUB = 'kill -STOP $$; exec "$@"'
"""The child stops itself so that the parent can set its limits before the program runs."""


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
    """User + system CPU of this child and the descendants it waited for (``os.wait4``)."""
    wall_seconds: float
    max_rss_bytes: int = 0
    """Peak resident memory of the child (or of its largest waited-for descendant)."""
    extra: dict = field(default_factory=dict)


class SpawnError(OSError):
    """The child could not be started or did not reach its stop point."""


# --- network isolation -----------------------------------------------------------------------


@lru_cache(maxsize=1)
def isolation_prefix() -> tuple[str, ...]:
    """The argv prefix that puts a program in a fresh network + IPC namespace, or ``()``.

    Probed once per process by running ``true`` under it.
    """
    exe = shutil.which("unshare")
    if exe is None:
        return ()
    candidates: list[tuple[str, ...]] = [(exe, "--net", "--ipc", "--")]
    if os.geteuid() != 0:
        candidates = [(exe, "--net", "--ipc", "--map-current-user", "--"), (exe, "--net", "--ipc", "--map-root-user", "--")]
    for prefix in candidates:
        try:
            r = subprocess.run([*prefix, "true"], capture_output=True, timeout=10, start_new_session=True, check=False)
        except (OSError, subprocess.SubprocessError):
            continue
        if r.returncode == 0:
            return prefix
    return ()


def network_isolated() -> bool:
    """Whether child processes can be put in an empty network namespace here."""
    return bool(isolation_prefix())


# --- spawning --------------------------------------------------------------------------------


def _rlimits(limits: Limits) -> list[tuple[int, tuple[int, int]]]:
    out = [(resource.RLIMIT_CORE, (0, 0))]
    if limits.cpu_seconds is not None:
        out.append((resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 5)))
    if limits.memory_bytes is not None:
        out.append((resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes)))
    if limits.file_bytes is not None:
        out.append((resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes)))
    if limits.open_files is not None:
        out.append((resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files)))
    return out


def apply_limits(pid: int, limits: Limits) -> None:
    """``resource.prlimit`` every limit of ``limits`` on process ``pid``."""
    for which, value in _rlimits(limits):
        resource.prlimit(pid, which, value)


def _wait_stopped(pid: int, timeout: float) -> None:
    """Block until ``pid`` is stopped, without reaping it. Raises ``SpawnError`` if it exited."""
    deadline = time.monotonic() + timeout
    flags = os.WSTOPPED | os.WEXITED | os.WNOWAIT | os.WNOHANG
    delay = 0.0002
    while True:
        info = os.waitid(os.P_PID, pid, flags)
        if info is not None and info.si_pid == pid:
            if info.si_code in (os.CLD_STOPPED, os.CLD_TRAPPED):
                return
            raise SpawnError(f"child {pid} exited before it could be limited (code {info.si_code}, status {info.si_status})")
        if time.monotonic() > deadline:
            raise SpawnError(f"child {pid} did not stop within {timeout:g}s")
        time.sleep(delay)
        delay = min(delay * 2, 0.01)


def launch_argv(argv: list[str], limits: Limits, path: str | None = None) -> list[str]:
    """The argv that runs ``argv`` behind the stop stub and the network wrapper (see ``spawn``).

    For a caller that must create the process itself (``pexpect``): start this argv in a new
    session, then call ``release(pid, limits)``. Raises ``FileNotFoundError`` for a missing program.
    """
    exe = argv[0] if os.sep in argv[0] else shutil.which(argv[0], path=path or os.environ.get("PATH"))
    if exe is None or not Path(exe).exists():
        raise FileNotFoundError(argv[0])
    prefix = isolation_prefix() if limits.isolate_network else ()
    return ["/bin/sh", "-c", _STOP_STUB, "sh", *prefix, exe, *argv[1:]]


def release(pid: int, limits: Limits) -> None:
    """Wait until the stub of ``launch_argv`` has stopped, set the limits, let it run.
    On any failure the process group is killed and the error raised."""
    try:
        _wait_stopped(pid, timeout=30.0)
        apply_limits(pid, limits)
        os.kill(pid, signal.SIGCONT)
    except BaseException:
        kill_group(pid)
        raise


def spawn(argv: list[str], *, limits: Limits, **popen_kwargs) -> subprocess.Popen:
    """Start ``argv`` limited and isolated as described in the module docstring.

    ``popen_kwargs`` go to ``subprocess.Popen`` (``stdin``, ``stdout``, ``cwd``, ``env``, ...);
    ``preexec_fn`` and ``start_new_session`` are refused (the sandbox sets the session itself).
    The returned process is running, in its own process group (pgid = pid), with the limits set.
    Raises ``FileNotFoundError`` if the program does not exist, ``SpawnError`` if the stub failed.
    """
    if "preexec_fn" in popen_kwargs or "start_new_session" in popen_kwargs:
        raise ValueError("spawn() sets the session and limits itself; preexec_fn/start_new_session are not accepted")
    env = popen_kwargs.get("env")
    full = launch_argv(argv, limits, path=(env or os.environ).get("PATH"))
    proc = subprocess.Popen(full, start_new_session=True, **popen_kwargs)
    try:
        release(proc.pid, limits)
    except BaseException:
        kill_group(proc)
        raise
    return proc


# --- the environment, killing, accounting ----------------------------------------------------


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
    """SIGKILL a child's whole process group (it was started in its own session)."""
    pid = proc if isinstance(proc, int) else proc.pid
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if not isinstance(proc, int) and proc.returncode is None:
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass


_ledger_lock = threading.Lock()
_ledger = [0.0]


def charge_cpu(seconds: float) -> None:
    """Add the CPU of one finished sandboxed process (tree) to this process's ledger."""
    with _ledger_lock:
        _ledger[0] += max(0.0, seconds)


def finished_cpu_seconds() -> float:
    """CPU seconds of every sandboxed child of this process that has finished, each measured on
    its own (``os.wait4`` for ``run``; the session's process tree when a session closes).

    Diff two readings around a piece of work. Children of every thread are summed, so the
    difference is that work's cost only where one piece of work runs at a time in the process
    (a benchmark worker); per-check figures are ``RunResult.cpu_seconds``.
    """
    with _ledger_lock:
        return _ledger[0]


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


def _reap(proc: subprocess.Popen) -> resource.struct_rusage | None:
    """``os.wait4`` the child: its exit status goes into ``proc.returncode``; returns its rusage."""
    try:
        _pid, status, usage = os.wait4(proc.pid, 0)
    except ChildProcessError:  # reaped elsewhere already
        proc.wait()
        return None
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage


def _drain(stream, sink: list[str]) -> threading.Thread:
    def pump() -> None:
        try:
            sink.append(stream.read())
        except (OSError, ValueError):
            pass

    t = threading.Thread(target=pump, daemon=True)
    t.start()
    return t


def _write_files(root: str, files: dict[str, str] | None) -> None:
    for name, text in (files or {}).items():
        p = Path(root) / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


@dataclass(frozen=True)
class _Reaped:
    """A child waited for by ``_feed_and_reap``."""

    usage: resource.struct_rusage | None
    """Its rusage (None when it was reaped elsewhere)."""
    timed_out: threading.Event
    """Set when the deadline killed its process group."""


def _feed_and_reap(proc: subprocess.Popen, stdin: str | None, timeout: float) -> _Reaped:
    """Write ``stdin`` to the child and wait for it; after ``timeout`` s its process group is
    SIGKILLed. Ctrl-C or a cancelled caller kills the group too and re-raises."""
    timed_out = threading.Event()

    def on_timeout() -> None:
        timed_out.set()
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    timer = threading.Timer(timeout, on_timeout)
    timer.daemon = True
    timer.start()
    try:
        if stdin is not None and proc.stdin is not None:
            try:
                proc.stdin.write(stdin)
                proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass
        usage = _reap(proc)
    except BaseException:  # Ctrl-C or a cancelled caller: never leave the checker running
        timer.cancel()
        kill_group(proc)
        raise
    finally:
        timer.cancel()
    return _Reaped(usage, timed_out)


def _result(rc: int, reaped: _Reaped, stdout: str, stderr: str, wall: float, limits: Limits) -> RunResult:
    """The ``RunResult`` of a finished child (its CPU is charged to the ledger here)."""
    usage = reaped.usage
    cpu = (usage.ru_utime + usage.ru_stime) if usage is not None else 0.0
    charge_cpu(cpu)
    was_timeout = reaped.timed_out.is_set()
    cpu_limit_hit = rc == -signal.SIGXCPU and limits.cpu_seconds is not None and not was_timeout
    return RunResult(
        returncode=rc,
        stdout=stdout,
        stderr=stderr,
        timed_out=was_timeout or cpu_limit_hit,
        out_of_memory=(not was_timeout) and looks_out_of_memory(rc, stderr),
        cpu_seconds=cpu,
        wall_seconds=wall,
        max_rss_bytes=(usage.ru_maxrss * 1024) if usage is not None else 0,
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
    After the child exits, what is left of its process group is killed.
    """
    if shutil.which(argv[0]) is None and not Path(argv[0]).exists():
        raise FileNotFoundError(argv[0])
    with tempfile.TemporaryDirectory(prefix="prover-sbx-") as tmp:
        _write_files(tmp, files)
        t0 = time.monotonic()
        proc = spawn(
            argv,
            limits=limits,
            cwd=str(cwd or tmp),
            env=scrubbed_env(tmp, env_keep),
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        out: list[str] = []
        err: list[str] = []
        readers = [_drain(proc.stdout, out), _drain(proc.stderr, err)]
        reaped = _feed_and_reap(proc, stdin, timeout)
        kill_group(proc.pid)  # stray grandchildren, which may hold the pipes open
        for t in readers:
            t.join(timeout=5)
        wall = time.monotonic() - t0
        return _result(proc.returncode, reaped, "".join(out), "".join(err), wall, limits)
