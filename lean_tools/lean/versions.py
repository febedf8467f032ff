"""Lean toolchain / Mathlib / REPL version agreement.

The REPL binary, the Lean toolchain and Mathlib must be built for the same Lean version
(the REPL repository has one tag per Lean version, Mathlib too). What is read, without
running Lean:
- ``lean-toolchain`` of the project (``leanprover/lean4:v4.27.0``);
- ``lake-manifest.json``: Mathlib's and the REPL's ``inputRev`` (the tag asked for) and ``rev``;
- when the packages are downloaded, their own ``lean-toolchain`` under ``.lake/packages/``.

What is read from a running REPL: ``Lean.versionString`` (``parse_version_string``), the
version the binary was really built with. ``check`` refuses on any disagreement it can see;
a branch name such as ``master`` as ``inputRev`` cannot be compared and is only noted.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ..types import NotInstalled, VersionMismatch

_VERSION = re.compile(r"v?(\d+\.\d+\.\d+(?:-rc\d+)?)")
SETUP_HINT = "run `prover-setup lean` (installs elan, then `lake update && lake build` in lean_project/)"


class LeanVersions(BaseModel):
    model_config = ConfigDict(frozen=True)

    project_dir: str
    toolchain: str | None = None
    """Raw ``lean-toolchain`` contents, e.g. ``leanprover/lean4:v4.27.0``."""
    lean: str | None = None
    """Lean version from the toolchain, normalised without ``v`` (``4.27.0``)."""
    mathlib_input_rev: str | None = None
    mathlib_rev: str | None = None
    mathlib_toolchain: str | None = None
    """Lean version in Mathlib's own ``lean-toolchain`` (only once downloaded)."""
    repl_input_rev: str | None = None
    repl_rev: str | None = None
    repl_toolchain: str | None = None
    """Lean version in the REPL package's own ``lean-toolchain`` (only once downloaded)."""


def normalise(version: str | None) -> str | None:
    """``leanprover/lean4:v4.27.0`` / ``v4.27.0`` / ``4.27.0, commit ...`` -> ``4.27.0``; else None."""
    if not version:
        return None
    m = _VERSION.search(version)
    return m.group(1) if m else None


def parse_version_string(text: str) -> str | None:
    """Version out of ``#eval Lean.versionString`` output (``"4.27.0"``) or ``lean --version``
    (``Lean (version 4.27.0, x86_64-unknown-linux-gnu, commit ..., Release)``)."""
    return normalise(text)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        return None


def _package(manifest: dict, *names: str) -> dict | None:
    wanted = {n.lower() for n in names}
    for p in manifest.get("packages", []):
        if str(p.get("name", "")).lower() in wanted:
            return p
    return None


def read_versions(project_dir: str | Path) -> LeanVersions:
    """Read what the project files say. Raises NotInstalled when there is no ``lean-toolchain``."""
    root = Path(project_dir)
    toolchain = _read(root / "lean-toolchain")
    if toolchain is None:
        raise NotInstalled(f"Lean project at {root} (no lean-toolchain)", SETUP_HINT)
    fields: dict = {"project_dir": str(root), "toolchain": toolchain, "lean": normalise(toolchain)}
    manifest_text = _read(root / "lake-manifest.json")
    manifest: dict = {}
    if manifest_text:
        try:
            manifest = json.loads(manifest_text)
        except json.JSONDecodeError:
            raise VersionMismatch(f"{root / 'lake-manifest.json'} is not valid JSON") from None
    packages_dir = root / manifest.get("packagesDir", ".lake/packages")
    for key, names in (("mathlib", ("mathlib",)), ("repl", ("REPL", "repl"))):
        p = _package(manifest, *names)
        if p is not None:
            fields[f"{key}_input_rev"] = p.get("inputRev")
            fields[f"{key}_rev"] = p.get("rev")
            fields[f"{key}_toolchain"] = normalise(_read(packages_dir / p["name"] / "lean-toolchain"))
    return LeanVersions(**fields)


def problems(v: LeanVersions, repl_reported: str | None = None) -> tuple[list[str], list[str]]:
    """(mismatches, notes). Mismatches are disagreements seen; notes are things that could not be compared."""
    bad: list[str] = []
    notes: list[str] = []
    if v.lean is None:
        bad.append(f"lean-toolchain {v.toolchain!r} names no Lean version")
        return bad, notes
    for what, tag, tc in (
        ("Mathlib", v.mathlib_input_rev, v.mathlib_toolchain),
        ("REPL", v.repl_input_rev, v.repl_toolchain),
    ):
        if tag is None and tc is None:
            notes.append(f"{what} is not in lake-manifest.json")
            continue
        tag_version = normalise(tag) if tag and _VERSION.fullmatch(tag.strip()) else None
        if tag_version is not None and tag_version != v.lean:
            bad.append(f"{what} is pinned to {tag} but lean-toolchain is v{v.lean}")
        elif tag_version is None and tag is not None:
            notes.append(f"{what} inputRev {tag!r} is not a version tag")
        if tc is not None and tc != v.lean:
            bad.append(f"{what} package was built for Lean v{tc} but lean-toolchain is v{v.lean}")
    if repl_reported is not None:
        got = normalise(repl_reported)
        if got != v.lean:
            bad.append(f"the running REPL reports Lean {repl_reported!r} but lean-toolchain is v{v.lean}")
    return bad, notes


def check(project_dir: str | Path, repl_reported: str | None = None) -> LeanVersions:
    """Read and check; raise ``VersionMismatch`` listing every disagreement."""
    v = read_versions(project_dir)
    bad, _ = problems(v, repl_reported)
    if bad:
        raise VersionMismatch("; ".join(bad))
    return v
