"""The Lake project a Lean file belongs to, and the REPL command that sees its modules.

``find_project(file)`` walks up from the file's folder to the first folder holding a
``lakefile.lean`` or ``lakefile.toml`` (``lakefile.lean`` wins when both are there, as in Lake)
and reads its ``lean-toolchain`` and ``lake-manifest.json`` (``LeanProject``). None when no
folder up the tree has a lakefile.

``lean_tools.lean.repl.repl_command(project, base)`` is ``lake env <repl-binary>`` with the project root as working
directory: ``lake env`` puts the project's own build (``.lake/build/lib``) and every dependency's
``.olean`` files on ``LEAN_PATH``, so ``import MyProject.Foo`` and ``import Mathlib`` resolve the
way they do in the user's editor. The REPL binary is the project's own (its ``REPL`` package,
when the manifest lists it and it is built) or else the installed one from ``base`` (the
prover's ``lean_project/``), with relative paths made absolute against the folder they were
relative to. ``LeanReplSession(header, project=...)`` and ``repl_config`` use it.

A REPL reads only ``.olean`` files written by its own Lean version: ``check_toolchain`` refuses
a project whose ``lean-toolchain`` names another Lean than the one the REPL was built with, with
a message saying what to change. The running REPL's own report of its version is compared again
at start (``lean_tools.lean.versions``).

Not covered: Lake workspaces whose root is above the package (``lake env`` runs in the folder of
the nearest lakefile); building the project (``lake build`` must have run: a module that is not
built fails to import, and the REPL says so); ``packagesDir`` other than the manifest's.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ..types import VersionMismatch
from . import versions

LAKEFILES = ("lakefile.lean", "lakefile.toml")
"""Lake's configuration files, in the order Lake prefers them."""
REPL_PACKAGE_NAMES = ("REPL", "repl")
_REPL_BINARY = Path(".lake") / "build" / "bin" / "repl"


class ProjectError(ValueError):
    """The project's files cannot be read (a manifest that is not JSON, an unreadable lakefile)."""


class LakePackage(BaseModel):
    """One dependency listed in ``lake-manifest.json``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    type: str = "git"
    """``git`` or ``path``."""
    url: str | None = None
    rev: str | None = None
    """The commit the manifest pins (git packages)."""
    input_rev: str | None = None
    """What the lakefile asked for: a tag, a branch (``inputRev``)."""
    dir: str | None = None
    """A path package's folder, relative to the project root."""
    inherited: bool = False
    """A dependency of a dependency."""


class LeanProject(BaseModel):
    """A Lake project: where the REPL must run so that the file's imports resolve."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    root: str
    """Absolute folder of the lakefile."""
    lakefile: str
    """Absolute path of ``lakefile.lean`` or ``lakefile.toml``."""
    toolchain: str | None = None
    """``lean-toolchain`` as written (stripped), e.g. ``leanprover/lean4:v4.27.0``; None without one."""
    manifest: str | None = None
    """Absolute path of ``lake-manifest.json``; None before ``lake update`` made one."""
    packages_dir: str = ".lake/packages"
    """Where the dependencies are checked out, relative to ``root`` (the manifest's ``packagesDir``)."""
    packages: tuple[LakePackage, ...] = ()

    @property
    def lean_version(self) -> str | None:
        """The Lean version of ``toolchain`` without ``v`` (``4.27.0``), or None."""
        return versions.normalise(self.toolchain)

    def package(self, *names: str) -> LakePackage | None:
        """The manifest's package with one of ``names`` (case-insensitive), or None."""
        wanted = {n.lower() for n in names}
        return next((p for p in self.packages if p.name.lower() in wanted), None)

    def describe(self) -> str:
        """One line for messages and records."""
        deps = ", ".join(p.name for p in self.packages if not p.inherited) or "no dependencies"
        return f"Lake project at {self.root} ({Path(self.lakefile).name}, {self.toolchain or 'no lean-toolchain'}; {deps})"


class ReplCommand(BaseModel):
    """How to start a REPL that sees a project: ``argv`` run in ``cwd``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    argv: tuple[str, ...]
    cwd: str
    repl_project: str
    """The Lake project the REPL binary was built in: its ``lean-toolchain`` is the REPL's Lean."""


def find_lakefile(folder: Path) -> Path | None:
    """The lakefile of ``folder`` itself (``lakefile.lean`` first), or None."""
    return next((folder / name for name in LAKEFILES if (folder / name).is_file()), None)


def find_project(file: str | Path) -> LeanProject | None:
    """The Lake project of ``file``: the nearest folder at or above the file's folder that holds a
    lakefile. None when there is none. Raises ``ProjectError`` for an unreadable
    ``lean-toolchain`` or ``lake-manifest.json``."""
    path = Path(file).resolve()
    start = path if path.is_dir() else path.parent
    for folder in (start, *start.parents):
        lakefile = find_lakefile(folder)
        if lakefile is not None:
            return read_project(folder, lakefile)
    return None


def read_project(root: Path, lakefile: Path) -> LeanProject:
    """The ``LeanProject`` of a folder known to hold ``lakefile``."""
    toolchain = _read_text(root / "lean-toolchain")
    manifest_path = root / "lake-manifest.json"
    manifest_text = _read_text(manifest_path)
    fields: dict = {}
    if manifest_text is not None:
        fields = _manifest_fields(manifest_text, manifest_path)
        fields["manifest"] = str(manifest_path)
    return LeanProject(root=str(root), lakefile=str(lakefile), toolchain=toolchain or None, **fields)


def _read_text(path: Path) -> str | None:
    if not path.is_file():
        return None
    try:
        return path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as e:
        raise ProjectError(f"{path}: cannot read: {e}") from None


def _manifest_fields(text: str, path: Path) -> dict:
    """``packages_dir`` and ``packages`` of a manifest. Old manifests (Lake before the
    ``type`` field) wrap each entry as ``{"git": {...}}`` or ``{"path": {...}}``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ProjectError(f"{path} is not valid JSON: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("packages", []), list):
        raise ProjectError(f"{path}: expected an object with a list of packages")
    packages = []
    for raw in data.get("packages", []):
        entry = raw
        if isinstance(raw, dict) and len(raw) == 1 and next(iter(raw)) in ("git", "path"):
            kind, inner = next(iter(raw.items()))
            entry = {**inner, "type": kind} if isinstance(inner, dict) else None
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise ProjectError(f"{path}: a package entry without a name: {str(entry)[:200]}")
        packages.append(
            LakePackage(
                name=entry["name"],
                type=str(entry.get("type", "git")),
                url=entry.get("url"),
                rev=entry.get("rev"),
                input_rev=entry.get("inputRev"),
                dir=entry.get("dir"),
                inherited=bool(entry.get("inherited", False)),
            )
        )
    return {"packages_dir": str(data.get("packagesDir") or ".lake/packages"), "packages": tuple(packages)}


def own_repl_binary(project: LeanProject) -> Path | None:
    """The REPL the project builds itself (a ``REPL`` package in its manifest, built), or None."""
    pkg = project.package(*REPL_PACKAGE_NAMES)
    if pkg is None:
        return None
    folder = Path(project.root) / (pkg.dir if pkg.type == "path" and pkg.dir else Path(project.packages_dir) / pkg.name)
    binary = (folder / _REPL_BINARY).resolve()
    return binary if binary.is_file() else None


def check_toolchain(project: LeanProject, repl_project: str | Path) -> None:
    """Raise ``VersionMismatch`` when ``project`` needs another Lean than the REPL built in
    ``repl_project`` (a folder with a ``lean-toolchain``), or names no Lean version at all."""
    if Path(repl_project).resolve() == Path(project.root).resolve():
        return
    if project.lean_version is None:
        what = f"lean-toolchain {project.toolchain!r} names no Lean version" if project.toolchain else "no lean-toolchain"
        raise VersionMismatch(
            f"{project.root} has {what}, so the Lean it needs is unknown; add a lean-toolchain (the installed REPL's is in {repl_project})"
        )
    theirs = versions.read_versions(repl_project)
    if theirs.lean != project.lean_version:
        raise VersionMismatch(
            f"{project.root} uses Lean {project.lean_version} ({project.toolchain}) but the REPL in "
            f"{repl_project} is built for Lean {theirs.lean} ({theirs.toolchain}); a REPL reads only "
            f".olean files of its own Lean version. Either add the REPL to the project "
            f"(require REPL at the tag v{project.lean_version}, then `lake build repl`) or move the "
            f"project to {theirs.toolchain}"
        )
