"""``prover-bench fetch``: download the upstream datasets into a data directory.

Clones each upstream repository (shallow, at the pinned commit when the server allows it)
and copies the statement files into the layout ``benchmarks.suites`` reads:

- trishullab/PutnamBench -> ``putnambench/coq``, ``putnambench/lean4``, ``putnambench/informal``
  (the informal file is MAA material: kept in the data dir, never committed);
- LLM4Rocq/miniF2F-rocq -> ``minif2f/rocq/{valid,test}``;
- yangky11/miniF2F-lean4 -> ``minif2f/lean4-src`` (raw Lean sources, usable as a folder suite).

Without network access it fails with ``FetchError`` (the CLI prints it and exits 2).
The bundled ``benchmarks/data`` already holds these statements; fetch is for refreshing them
or for getting the informal PutnamBench statements.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


class FetchError(Exception):
    """Download failed (no network, git missing, upstream layout changed)."""


@dataclass(frozen=True)
class Upstream:
    repo: str
    commit: str
    copies: tuple[tuple[str, str], ...]
    """(path in the repository, destination relative to the data dir)."""


UPSTREAMS = (
    Upstream("trishullab/PutnamBench", "3c9b9268ebd132d482938b8e9d242dd71fc1ebc0",
             (("coq/src", "putnambench/coq"), ("lean4/src", "putnambench/lean4"), ("informal", "putnambench/informal"),
              ("coq/LICENSE", "putnambench/LICENSE-coq-MIT"))),
    Upstream("LLM4Rocq/miniF2F-rocq", "b60affae5d9b81eb097424e3143c40165ccbe97b",
             (("test", "minif2f/rocq/test"), ("valid", "minif2f/rocq/valid"), ("LICENSE", "minif2f/rocq/LICENSE"))),
    Upstream("yangky11/miniF2F-lean4", "5746b7d6c47855ce1294bed87329618ff7f1bc31",
             (("MiniF2F", "minif2f/lean4-src"), ("LICENSE", "minif2f/LICENSE-miniF2F-lean4-yangky11-MIT"))),
)


def _git(args: list[str], cwd: Path, timeout: float = 600) -> None:
    try:
        r = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    except FileNotFoundError:
        raise FetchError("git is not installed") from None
    except subprocess.TimeoutExpired:
        raise FetchError(f"git {' '.join(args[:2])} timed out after {timeout:g}s (no network?)") from None
    if r.returncode != 0:
        raise FetchError(f"git {' '.join(args[:2])} failed: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}")


def fetch_one(up: Upstream, dest: Path, *, timeout: float = 600) -> list[str]:
    """Fetch one upstream at its commit and copy its files; returns the destinations written."""
    with tempfile.TemporaryDirectory(prefix="bench-fetch-") as tmp:
        work = Path(tmp) / "repo"
        work.mkdir()
        _git(["init", "-q"], work)
        _git(["remote", "add", "origin", f"https://github.com/{up.repo}.git"], work)
        _git(["fetch", "-q", "--depth", "1", "origin", up.commit], work, timeout)
        _git(["checkout", "-q", "FETCH_HEAD"], work)
        written = []
        for src, dst in up.copies:
            s, d = work / src, dest / dst
            if not s.exists():
                raise FetchError(f"{up.repo}@{up.commit[:10]} has no {src}")
            d.parent.mkdir(parents=True, exist_ok=True)
            if d.exists():
                shutil.rmtree(d) if d.is_dir() else d.unlink()
            shutil.copytree(s, d) if s.is_dir() else shutil.copy2(s, d)
            written.append(dst)
        return written


def fetch_all(dest: Path, *, timeout: float = 600, log=print) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for up in UPSTREAMS:
        log(f"fetching {up.repo}@{up.commit[:10]} ...")
        for d in fetch_one(up, dest, timeout=timeout):
            log(f"  -> {dest / d}")
