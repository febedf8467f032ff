"""The Rocq project a file belongs to: its load path, found the way ``coqc`` users set it.

``find_project(file, cli_flags)`` looks for a ``_CoqProject`` in the file's folder or a parent
(its ``-Q``/``-R``/``-I`` lines and ``-arg`` options), else a dune ``(coq.theory (name X))``
stanza (the compiled files live under ``_build/default``), and appends the coqc-style flags given
on the command line or in the config. Relative paths are made absolute against the folder that
holds them, so the flags work from any working directory (the sandboxed checker runs ``coqc``
in a private temporary folder).

The active project's flags reach every ``coqtop`` and ``coqc`` the process or its children start
(``load_path_args``): the warm sessions, the fresh checker, the hammer, library search and the
verdict. ``activate(project)`` sets them for the duration of a ``with`` block through one
environment variable, ``PROVER_ROCQ_FLAGS`` (a JSON list), so that benchmark workers and servers
started as subprocesses inherit them.

Not covered: ``_CoqProject`` options other than ``-Q``/``-R``/``-I``/``-arg`` (file lists and
``COQDOCFLAGS`` are ignored), dune ``(theories ...)`` dependencies between several theories of one
project beyond adding each theory of the dune project, opam switches.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from .walk import IDENT

FLAGS_ENV = "PROVER_ROCQ_FLAGS"
"""Environment variable holding the active project's coqc flags as a JSON list of strings."""

_WITH_DIR_AND_NAME = ("-Q", "-R")
_WITH_DIR = ("-I",)


class ProjectError(ValueError):
    """The project's description or flags cannot be read (bad ``_CoqProject``, a flag without
    its arguments, a folder that does not exist)."""


class RocqProject(BaseModel):
    """Where a file's logical names come from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    root: str | None = None
    """Folder of the ``_CoqProject`` or dune project; None for a file on its own."""
    origin: str = "none"
    """``_CoqProject``, ``dune``, ``command line`` or ``none`` (several joined by ``+``)."""
    flags: tuple[str, ...] = ()
    """coqc-style flags with absolute paths, e.g. ``("-Q", "/home/u/p/theories", "MyProj")``."""

    def describe(self) -> str:
        """One line for messages and records."""
        where = f" at {self.root}" if self.root else ""
        return f"{self.origin}{where}: {' '.join(shlex.quote(f) for f in self.flags) or '(no flags)'}"


def normalize_flags(flags: Sequence[str], base: Path) -> tuple[str, ...]:
    """``flags`` checked (each ``-Q``/``-R`` has a folder and a name, each ``-I`` a folder) with the
    folders made absolute against ``base``. Other options pass through unchanged."""
    out: list[str] = []
    i = 0
    flags = list(flags)
    while i < len(flags):
        f = flags[i]
        if f in _WITH_DIR_AND_NAME:
            if i + 2 >= len(flags):
                raise ProjectError(f"{f} needs a folder and a logical name")
            folder, name = flags[i + 1], flags[i + 2]
            if not re.fullmatch(r"[A-Za-z_][\w']*(\.[A-Za-z_][\w']*)*|\"\"", name):
                raise ProjectError(f"{f} {folder} {name}: {name!r} is not a logical name")
            out += [f, str((base / folder).resolve()), "" if name == '""' else name]
            i += 3
        elif f in _WITH_DIR:
            if i + 1 >= len(flags):
                raise ProjectError(f"{f} needs a folder")
            out += [f, str((base / flags[i + 1]).resolve())]
            i += 2
        else:
            out.append(f)
            i += 1
    return tuple(out)


def parse_coqproject(text: str, root: Path) -> tuple[str, ...]:
    """The load-path flags of a ``_CoqProject`` (``-Q``, ``-R``, ``-I``, ``-arg``), absolute against ``root``."""
    words: list[str] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0]
        try:
            words += shlex.split(line)
        except ValueError as e:
            raise ProjectError(f"{root / '_CoqProject'}: cannot read the line {raw.strip()!r}: {e}") from None
    keep: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in _WITH_DIR_AND_NAME:
            keep += words[i : i + 3]
            i += 3
        elif w in _WITH_DIR:
            keep += words[i : i + 2]
            i += 2
        elif w == "-arg" and i + 1 < len(words):
            keep += shlex.split(words[i + 1])
            i += 2
        else:
            i += 1  # a file name or an option coqc does not need (e.g. -o)
    try:
        return normalize_flags(keep, root)
    except ProjectError as e:
        raise ProjectError(f"{root / '_CoqProject'}: {e}") from None


_DUNE_THEORY = re.compile(r"\(\s*coq\.theory\b(?P<body>(?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)", re.S)
_DUNE_NAME = re.compile(r"\(\s*name\s+([\w.']+)\s*\)")


def dune_theories(root: Path) -> tuple[str, ...]:
    """``-Q _build/default/<dir> <name>`` for each ``(coq.theory (name ...))`` under ``root``."""
    flags: list[str] = []
    for dune in sorted(root.rglob("dune")):
        if "_build" in dune.parts or not dune.is_file():
            continue
        try:
            text = dune.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for m in _DUNE_THEORY.finditer(text):
            name = _DUNE_NAME.search(m.group("body"))
            if name:
                rel = dune.parent.relative_to(root)
                flags += ["-Q", str((root / "_build" / "default" / rel).resolve()), name.group(1)]
    return tuple(flags)


def _find_upwards(start: Path, name: str) -> Path | None:
    for d in (start, *start.parents):
        if (d / name).is_file():
            return d
    return None


def find_project(file: str | Path, cli_flags: Sequence[str] = (), *, base: Path | None = None) -> RocqProject:
    """The project of ``file``: a ``_CoqProject`` in its folder or a parent, else a dune project
    with ``coq.theory`` stanzas, plus ``cli_flags`` (relative to ``base``, default the working
    folder). Raises ``ProjectError`` for unreadable descriptions or malformed flags."""
    folder = Path(file).resolve().parent
    origins: list[str] = []
    flags: tuple[str, ...] = ()
    root: Path | None = _find_upwards(folder, "_CoqProject")
    if root is not None:
        try:
            flags = parse_coqproject((root / "_CoqProject").read_text(encoding="utf-8"), root)
        except (OSError, UnicodeDecodeError) as e:
            raise ProjectError(f"{root / '_CoqProject'}: cannot read: {e}") from None
        origins.append("_CoqProject")
    else:
        root = _find_upwards(folder, "dune-project")
        if root is not None:
            flags = dune_theories(root)
            if flags:
                origins.append("dune")
            else:
                root = None
    extra = normalize_flags(cli_flags, base or Path.cwd()) if cli_flags else ()
    if extra:
        origins.append("command line")
    return RocqProject(root=str(root) if root else None, origin="+".join(origins) or "none", flags=flags + extra)


def load_path_args() -> tuple[str, ...]:
    """The active project's flags (``activate``), for every ``coqtop``/``coqc`` command line."""
    raw = os.environ.get(FLAGS_ENV, "")
    if not raw:
        return ()
    try:
        flags = json.loads(raw)
    except json.JSONDecodeError:
        raise ProjectError(f"{FLAGS_ENV} is not a JSON list of strings: {raw[:200]!r}") from None
    if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
        raise ProjectError(f"{FLAGS_ENV} is not a JSON list of strings: {raw[:200]!r}")
    return tuple(flags)


@contextlib.contextmanager
def activate(project: RocqProject | Sequence[str] | None) -> Iterator[None]:
    """Within the block, every Rocq process this process (or a child) starts uses the project's flags."""
    flags = tuple(project.flags if isinstance(project, RocqProject) else (project or ()))
    old = os.environ.get(FLAGS_ENV)
    if flags:
        os.environ[FLAGS_ENV] = json.dumps(list(flags))
    else:
        os.environ.pop(FLAGS_ENV, None)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(FLAGS_ENV, None)
        else:
            os.environ[FLAGS_ENV] = old


def build(project: RocqProject, *, timeout: float = 1800.0) -> tuple[bool, str]:
    """Run the project's own build: ``coq_makefile`` + ``make`` for a ``_CoqProject``, ``dune build``
    for dune. Returns (ok, the tail of the output)."""
    if project.root is None:
        return False, "no _CoqProject or dune project to build"
    root = Path(project.root)
    if "_CoqProject" in project.origin:
        steps = [["coq_makefile", "-f", "_CoqProject", "-o", "CoqMakefile"], ["make", "-f", "CoqMakefile", f"-j{os.cpu_count() or 1}"]]
    else:
        steps = [["dune", "build"]]
    out = ""
    for cmd in steps:
        try:
            r = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=timeout, check=False)
        except FileNotFoundError:
            return False, f"{cmd[0]} is not installed"
        except subprocess.TimeoutExpired:
            return False, f"{' '.join(cmd)} ran past {timeout:.0f} s"
        out = (r.stdout + r.stderr)[-2000:]
        if r.returncode != 0:
            return False, f"{' '.join(cmd)} failed (exit {r.returncode}):\n{out}"
    return True, out


_DEFINITION = re.compile(rf"^\s*(?:#\[[^\]]*\]\s*)?(?:(?:Local|Global|Program)\s+)*(?:Definition|Fixpoint|Let)\s+({IDENT})", re.M)
_sources_cache: dict[tuple[str, float], str] = {}


def project_sources(flags: Sequence[str] | None = None) -> list[str]:
    """The texts of the active project's own ``.v`` files (the folders of its ``-Q``/``-R``
    flags), comments removed, cached by path and modification time. Empty without a project."""
    from ..source import strip_comments

    flags = load_path_args() if flags is None else tuple(flags)
    texts: list[str] = []
    for i, f in enumerate(flags[:-1]):
        if f not in _WITH_DIR_AND_NAME:
            continue
        folder = Path(flags[i + 1])
        for p in sorted(folder.rglob("*.v")) if folder.is_dir() else []:
            key = (str(p), p.stat().st_mtime)
            if key not in _sources_cache:
                try:
                    _sources_cache[key] = strip_comments(p.read_text(encoding="utf-8"), "rocq")
                except (OSError, UnicodeDecodeError):
                    _sources_cache[key] = ""
            texts.append(_sources_cache[key])
    return texts


def project_definitions(flags: Sequence[str] | None = None) -> tuple[str, ...]:
    """Names the active project's own ``.v`` files define with ``Definition``/``Fixpoint``/``Let``
    (read lexically): what the search may unfold besides the file's own definitions."""
    return tuple(dict.fromkeys(n for text in project_sources(flags) for n in _DEFINITION.findall(text)))


def project_admitted(flags: Sequence[str] | None = None) -> tuple[str, ...]:
    """Full logical names (``Proj.File.M.lemma``) of the lemmas the active project's own files
    leave ``Admitted``: a proof in another file may rest on them, and is then only proved
    assuming them. Empty without a project."""
    from .holes import find_holes

    flags = load_path_args() if flags is None else tuple(flags)
    names: list[str] = []
    for i, f in enumerate(flags[:-2]):
        if f not in _WITH_DIR_AND_NAME:
            continue
        folder, logical = Path(flags[i + 1]), flags[i + 2]
        for p in sorted(folder.rglob("*.v")) if folder.is_dir() else []:
            module = ".".join(filter(None, [logical, *p.relative_to(folder).with_suffix("").parts]))
            try:
                text = p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            names += [f"{module}.{h.qualified}" for h in find_holes(text) if h.admitted_lemma and h.index == 0]
    return tuple(names)
