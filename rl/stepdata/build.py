"""Build the step dataset from the installed development libraries (``prover-data build``).

Only the standard library (``$(coqc -where)/theories``) and stdpp
(``$(coqc -where)/user-contrib/stdpp``) are read (``benchmarks.library_split.DEVELOPMENT_LIBRARIES``);
a file is in the ``valid`` split when ``is_held_out(library, relpath)``, else in ``train``.

Layout under the output folder:
- ``files/<library>/<relpath>.steps.jsonl`` and ``.result.json``: one file's steps and its
  ``FileResult``, written as soon as the file is replayed; a file whose result exists is not
  replayed again, so an interrupted build resumes where it stopped.
- ``train.jsonl``, ``valid.jsonl``: every file's steps of that split, deduplicated (``Step.dedup_key``).
- ``stats.json``: counts per split, library and status, the failures, and the replay rate.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from benchmarks.library_split import DEVELOPMENT_LIBRARIES, is_held_out

from .replay import FileResult, ReplayConfig, replay_file
from .schema import Library, Split, Step, dedup, read_jsonl, write_jsonl


class BuildConfig(BaseModel):
    """What ``prover-data build`` replays and where it writes."""

    model_config = ConfigDict(frozen=True)

    libraries: tuple[Library, ...] = ("stdlib", "stdpp")
    limit_files: int | None = Field(default=None, ge=1, description="at most this many files per library")
    out: Path = Path("data/steps")
    step_timeout: float = Field(default=60.0, gt=0)
    file_timeout: float = Field(default=600.0, gt=0)
    jobs: int = Field(default=1, ge=1, description="files replayed at once (one coqtop each)")


def coq_lib_dir() -> Path:
    """``coqc -where`` (the installed Rocq library folder); ``RuntimeError`` when Rocq is missing."""
    try:
        out = subprocess.run(["coqc", "-where"], capture_output=True, text=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError) as e:
        raise RuntimeError(f"cannot run `coqc -where` (is Rocq installed? `make rocq`): {e}") from None
    return Path(out.stdout.strip())


def library_root(library: str, lib_dir: Path) -> Path:
    """The folder of ``library``'s ``.v`` files; ``ValueError`` for a library that may not be training data."""
    if library not in DEVELOPMENT_LIBRARIES:
        raise ValueError(f"library {library!r} may not enter the data (only {', '.join(DEVELOPMENT_LIBRARIES)})")
    return lib_dir / "theories" if library == "stdlib" else lib_dir / "user-contrib" / library


def split_of(library: str, relpath: str) -> Split:
    """``valid`` for a held-out file (``benchmarks.library_split.is_held_out``), else ``train``."""
    return "valid" if is_held_out(library, relpath) else "train"


def library_files(root: Path, limit: int | None = None) -> list[str]:
    """The ``.v`` files under ``root`` (POSIX paths relative to it). With ``limit``, the first
    ``limit`` in a stable hash order, so a small subset spreads over the whole library."""
    rels = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.v"))
    if limit is None:
        return rels
    return sorted(rels, key=lambda r: hashlib.sha256(r.encode()).hexdigest())[:limit]


def coqtop_args(library: str, relpath: str) -> tuple[str, ...]:
    """Extra ``coqtop`` arguments for a file: the standard library's ``Init`` is built without the prelude."""
    return ("-noinit",) if library == "stdlib" and relpath.startswith("Init/") else ()


def _paths(out: Path, library: str, relpath: str) -> tuple[Path, Path]:
    base = out / "files" / library / relpath
    return base.with_name(base.name + ".steps.jsonl"), base.with_name(base.name + ".result.json")


def replay_library(config: BuildConfig, library: Library, lib_dir: Path,
                   progress: Callable[[FileResult], None] = lambda r: None) -> list[FileResult]:
    """Replay the files of one library not replayed yet (``config.jobs`` coqtops at once); return
    every file's result (old and new) in path order."""
    root = library_root(library, lib_dir)
    done: dict[str, FileResult] = {}
    todo: list[str] = []
    for rel in library_files(root, config.limit_files):
        result_path = _paths(config.out, library, rel)[1]
        if result_path.exists():
            done[rel] = FileResult.model_validate_json(result_path.read_text(encoding="utf-8"))
        else:
            todo.append(rel)

    def one(rel: str) -> FileResult:
        steps_path, result_path = _paths(config.out, library, rel)
        rc = ReplayConfig(step_timeout=config.step_timeout, file_timeout=config.file_timeout,
                          extra_args=coqtop_args(library, rel))
        result, steps = replay_file(root / rel, library, rel, split_of(library, rel), rc)
        write_jsonl(steps_path, steps)
        result_path.write_text(result.model_dump_json(indent=1) + "\n", encoding="utf-8")  # last: marks done
        return result

    # threads suffice: the work is in the coqtop processes, each thread drives its own
    with ThreadPoolExecutor(max_workers=config.jobs) as pool:
        for rel, result in zip(todo, pool.map(one, todo)):
            done[rel] = result
            progress(result)
    return [done[rel] for rel in sorted(done)]


def merge(out: Path, results: Sequence[FileResult]) -> dict[str, int]:
    """Write ``train.jsonl`` and ``valid.jsonl`` (deduplicated) from the per-file steps of ``results``."""
    counts: dict[str, int] = {}
    for split in ("train", "valid"):
        steps: list[Step] = []
        for r in results:
            if r.split == split:
                steps.extend(read_jsonl(_paths(out, r.library, r.file)[0]))
        kept = dedup(steps)
        counts[f"{split}_raw"] = len(steps)
        counts[split] = write_jsonl(out / f"{split}.jsonl", kept)
    return counts


def stats(results: Sequence[FileResult], counts: dict[str, int], wall_seconds: float) -> dict:
    """The build's figures: steps per split, files per status and library, failures, replay rate."""
    replay_s = sum(r.seconds for r in results)
    steps = sum(r.steps for r in results)
    return {
        "steps": counts,
        "files": len(results),
        "files_by_status": dict(Counter(r.status for r in results)),
        "files_by_library_split": dict(Counter(f"{r.library}/{r.split}" for r in results)),
        "steps_by_library": dict(sum((Counter({r.library: r.steps}) for r in results), Counter())),
        "proofs": sum(r.proofs for r in results),
        "sentences": sum(r.sentences for r in results),
        "replay_seconds": round(replay_s, 1),
        "steps_per_second": round(steps / replay_s, 2) if replay_s else None,
        "sentences_per_second": round(sum(r.sentences for r in results) / replay_s, 2) if replay_s else None,
        "files_per_minute": round(len(results) / (replay_s / 60), 2) if replay_s else None,
        "wall_seconds_this_run": round(wall_seconds, 1),
        "not_ok": [{"file": f"{r.library}/{r.file}", "status": r.status, "reason": r.reason[:300]}
                   for r in results if r.status != "ok"],
    }


def built_results(out: Path) -> list[FileResult]:
    """The results of every file replayed into ``out`` so far (any run, any library), in path order."""
    return [FileResult.model_validate_json(p.read_text(encoding="utf-8"))
            for p in sorted((out / "files").rglob("*.result.json"))]


def build(config: BuildConfig, progress: Callable[[FileResult], None] = lambda r: None) -> dict:
    """Replay the files not replayed yet, then merge everything replayed into ``config.out`` so far
    (earlier runs with other libraries or limits included) and write ``stats.json``; returns the stats."""
    t0 = time.monotonic()
    lib_dir = coq_lib_dir()
    for library in config.libraries:
        replay_library(config, library, lib_dir, progress)
    results = built_results(config.out)
    counts = merge(config.out, results)
    figures = stats(results, counts, time.monotonic() - t0)
    (config.out / "stats.json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return figures
