"""Extra verdict for re-proving a library lemma in its own file (the ``reprove`` benchmark).

A reprove problem is a library file cut after one lemma, compiled under a fresh logical name
while the installed libraries stay on the load path. The original lemma therefore still
exists, in the installed ``.vo`` of its file, and a candidate could reach it by loading that
file (``Require`` of the original module, or of any module that depends on it) and then citing
it (``exact Coq.Lists.List.app_nil_r.``). The general verdict (``verify``) does not know what
the original is; these checks do. Both run on top of it, never instead of it.

Defences:
- ``library_reason`` (the sound one): the set of loaded libraries after the candidate must
  EQUAL the set after the problem file (the cut file ending in ``Admitted``), and neither may
  load the original's module. A constant of a library file can only be named once that file is
  loaded, and the problem file cannot load its own original module (that would be a dependency
  cycle; the benchmark's build checks it on every problem file),
  so a candidate that loads nothing new cannot name the original lemma, nor anything of a file
  that depends on it, in any spelling (full, partial, through a notation or an ``Ltac``).
- ``mentions_original`` (cheap, early, clear message): the candidate's code (comments and
  strings masked) names the original by its full qualified name.
Where the libraries come from: ``loaded_libraries`` compiles the file in a fresh sandboxed
``coqc`` and reads ``Print Libraries.`` in a SEPARATE ``coqc`` that only ``Require``s the
compiled module, so nothing the candidate prints can forge the list.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass

from ..sandbox import Limits, run
from ..source import mask

MODULE_DIR = "Reprove"
"""Logical directory the checked files are compiled under (``-Q . Reprove``)."""
_LOADED = "Loaded library files:"


@dataclass(frozen=True)
class LoadedLibraries:
    """What ``loaded_libraries`` found: the libraries (``None`` when the file did not compile or
    the query failed) and, then, why."""

    libraries: tuple[str, ...] | None
    error: str = ""
    cpu_seconds: float = 0.0


@dataclass(frozen=True)
class ReproveVerdict:
    """The reprove checks' answer for one candidate."""

    accepted: bool
    reason: str
    cpu_seconds: float = 0.0


def parse_print_libraries(output: str) -> tuple[str, ...] | None:
    """The module names of the last ``Loaded library files:`` block of ``output`` (one indented
    name per line, as ``Print Libraries.`` prints them), or ``None`` when there is none."""
    at = output.rfind(_LOADED)
    if at < 0:
        return None
    names: list[str] = []
    for line in output[at + len(_LOADED) :].splitlines()[1:]:
        if not line.startswith(" ") or not line.strip():
            break
        names.append(line.strip())
    return tuple(names)


def mentions_original(candidate_text: str, original: str) -> bool:
    """Whether the candidate's code (comments and strings masked, leniently) contains the
    original's full qualified name as a whole identifier path."""
    code = mask(candidate_text, "rocq", lenient=True)
    return re.search(rf"(?<![\w'.]){re.escape(original)}(?![\w'])", code) is not None


def library_reason(reference: tuple[str, ...], candidate: tuple[str, ...], original_module: str | None = None) -> str | None:
    """Why the candidate's loaded libraries are not acceptable (module docstring), or ``None``.
    ``original_module``, when known, is the original lemma's file (``Coq.Lists.List``): neither
    side may load it."""
    for what, libs in (("problem file", reference), ("candidate", candidate)):
        if original_module is not None and original_module in libs:
            return f"the {what} loads {original_module}, the module of the original lemma"
    extra = sorted(set(candidate) - set(reference))
    missing = sorted(set(reference) - set(candidate))
    if extra:
        return f"the candidate loads libraries the problem file does not: {', '.join(extra)[:400]}"
    if missing:
        return f"the candidate does not load libraries the problem file loads: {', '.join(missing)[:400]}"
    return None


def loaded_libraries(text: str, flags: tuple[str, ...] = (), *, timeout: float = 300.0, nice: int = 0) -> LoadedLibraries:
    """Compile ``text`` as ``Reprove.Cut`` with ``flags`` (coqc load-path flags), then, in a
    separate ``coqc``, ``Require`` it and read ``Print Libraries.`` (``Reprove.Cut`` itself
    left out). Raises ``FileNotFoundError`` when ``coqc`` is not installed."""
    coqc = shutil.which("coqc")
    if coqc is None:
        raise FileNotFoundError("coqc is not installed")
    prefix = ["nice", "-n", str(nice)] if nice else []
    limits = Limits(cpu_seconds=int(timeout) + 10, memory_bytes=6 * 1024**3)
    files = {"Cut.v": text, "Query.v": f"Require {MODULE_DIR}.Cut.\nPrint Libraries.\n"}
    import tempfile
    from pathlib import Path

    cpu = 0.0
    with tempfile.TemporaryDirectory(prefix="reprove-") as tmp:
        for name, body in files.items():
            (Path(tmp) / name).write_text(body, encoding="utf-8")
        for step in ("Cut.v", "Query.v"):
            r = run([*prefix, coqc, "-q", *flags, "-Q", ".", MODULE_DIR, step], timeout=timeout, limits=limits, cwd=tmp)
            cpu += r.cpu_seconds
            if r.timed_out:
                return LoadedLibraries(None, f"{step}: coqc timed out after {timeout:g} s", cpu)
            if r.returncode != 0:
                return LoadedLibraries(None, f"{step}: {_first_error(r.stdout + r.stderr)}", cpu)
    libs = parse_print_libraries(r.stdout)
    if libs is None:
        return LoadedLibraries(None, "Query.v: no Print Libraries output", cpu)
    return LoadedLibraries(tuple(x for x in libs if x != f"{MODULE_DIR}.Cut"), "", cpu)


def _first_error(out: str) -> str:
    """The first ``Error:`` of coqc's output with its location line and message, on one line."""
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(("Error", "Anomaly")):
            where = lines[i - 1] if i and lines[i - 1].startswith("File ") else ""
            body = [line]
            for more in lines[i + 1 : i + 8]:
                if not more.strip() or more.startswith(("File ", "Warning")):
                    break
                body.append(more)
            return " ".join((where + " " + " ".join(body)).split())[:500]
    return " ".join(out.split())[-500:] or "coqc failed without a message"


def check_reprove(
    problem_text: str,
    candidate_text: str,
    original: str,
    flags: tuple[str, ...] = (),
    *,
    original_module: str | None = None,
    timeout: float = 300.0,
) -> ReproveVerdict:
    """The reprove checks for a candidate the general verdict accepted (module docstring):
    ``original`` is the original lemma's qualified name (``Coq.Lists.List.app_nil_r``),
    ``flags`` the problem's coqc load-path flags, ``original_module`` its file's module when
    known (the benchmark's build already checked that the problem file does not load it)."""
    if mentions_original(candidate_text, original):
        return ReproveVerdict(False, f"the candidate names the original lemma {original}")
    ref = loaded_libraries(problem_text, flags, timeout=timeout)
    if ref.libraries is None:
        return ReproveVerdict(False, f"the problem file does not compile: {ref.error}", ref.cpu_seconds)
    cand = loaded_libraries(candidate_text, flags, timeout=timeout)
    cpu = ref.cpu_seconds + cand.cpu_seconds
    if cand.libraries is None:
        return ReproveVerdict(False, f"the candidate does not compile: {cand.error}", cpu)
    why = library_reason(ref.libraries, cand.libraries, original_module)
    near = [lib for lib in cand.libraries if original.startswith(lib + ".") and lib not in ref.libraries]
    if why is not None and near:
        why = f"the candidate loads {near[-1]}, whose name prefixes the original's; {why}"
    if why is not None:
        return ReproveVerdict(False, why, cpu)
    return ReproveVerdict(True, f"loads the same {len(ref.libraries)} libraries as the problem file", cpu)
