"""The fixed samples of expert iteration: ``reprove-dev-heldout`` and ``reprove-dev-iter``.

Expert iteration searches with the tactic model on lemmas of the training files, trains on the
proofs it finds, and measures on lemmas whose files never enter training:

- ``dev-heldout``: ``HELDOUT_SIZE`` lemmas of ``reprove-dev``. Every ``reprove-dev`` lemma lies
  in a held-out file (``benchmarks.library_split.is_held_out``), so neither the human steps of
  its file nor search proofs of it are ever training data. Equal quotas per library
  (``benchmarks.reprove.allocate``), lemmas taken in the order of ``rank(SAMPLE_SEED, ...)``.
- ``dev-iter``: ``ITER_SIZE`` lemmas of the *training* files of the development libraries.
  ``reprove-dev`` has none (it is drawn from held-out files only), so this sample extends the
  ``reprove-dev`` sampling to those files with the same code: the same scan and its exclusions
  (``benchmarks.reprove_cut``), the same seed and order (``benchmarks.reprove.SEED``), equal
  quotas per library, and each taken lemma validated (the cut file compiles and does not load
  the original's module) or excluded with coqc's message.

Stored as ``dev-heldout.jsonl`` and ``dev-iter.jsonl`` (``ReproveEntry`` records) beside
``dev.jsonl``; ``dev-iter-exclusions.jsonl`` holds the sampled ``dev-iter`` lemmas that failed
validation. Deterministic for a given installation: rebuilding writes the same files.

    python -m benchmarks.reprove_samples [--out DIR] [--workers 2] [--timeout 300] [--no-cache]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .library_split import is_held_out
from .reprove import (
    DATA_SUBDIR,
    DEFAULT_CACHE,
    Candidate,
    Checked,
    Exclusion,
    ReproveEntry,
    ReproveError,
    Validator,
    allocate,
    coqlib,
    installed_libraries,
    pool,
    rank,
    read_entries,
    sample,
    to_entry,
)

SAMPLE_SEED = 20261203
"""Seed of the ``dev-heldout`` draw among the ``reprove-dev`` lemmas."""
HELDOUT_SIZE = 30
ITER_SIZE = 30


def heldout_sample(dev: list[ReproveEntry], size: int = HELDOUT_SIZE) -> list[ReproveEntry]:
    """``size`` entries of ``dev`` in held-out files, equal quotas per library, in seeded order;
    sorted like the stored splits. An entry of a training file is never taken."""
    by_lib: dict[str, list[ReproveEntry]] = {}
    for e in dev:
        if is_held_out(e.library, e.relpath):
            by_lib.setdefault(e.library, []).append(e)
    quota = allocate(size, {lib: len(es) for lib, es in by_lib.items()})
    taken = [e for lib, es in by_lib.items()
             for e in sorted(es, key=lambda x: rank(SAMPLE_SEED, x.library, x.relpath, x.name))[: quota[lib]]]
    return sorted(taken, key=lambda e: (e.library, e.relpath, e.decl_start))


def iter_sample(validator: Validator, *, workers: int = 2, where: Path | None = None,
                size: int = ITER_SIZE) -> tuple[list[ReproveEntry], list[Exclusion]]:
    """``size`` lemmas of the development libraries' training files that ``validator`` accepts
    (module docstring), and the sampled lemmas it refused."""
    libs = installed_libraries(where or coqlib())
    cands, _scanned = pool("train", libs)
    kept, failed = sample("dev-iter", cands, size, validator, workers=workers, progress=_progress)
    if any(is_held_out(c.library.name, c.relpath) for c in kept):  # the pool excludes them; a guard on edits
        raise ReproveError("dev-iter sample holds a lemma of a held-out file")
    return sorted((to_entry(c) for c in kept), key=lambda e: (e.library, e.relpath, e.decl_start)), failed


def cached_validator(timeout: float, cache: Path | None) -> Validator:
    """``validate_candidate`` through the validation cache ``benchmarks.reprove.build`` keeps."""
    from .reprove import _cache_key, _read_cache, validate_candidate

    known = _read_cache(cache)

    def check(c: Candidate) -> Checked:
        key = _cache_key(c)
        if key in known:
            return known[key]
        r = validate_candidate(c, timeout=timeout)
        if cache is not None and "timed out after" not in r.error:
            import json

            cache.parent.mkdir(parents=True, exist_ok=True)
            with cache.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"key": key, "error": r.error, "cpu_s": r.cpu_s}) + "\n")
        return r

    return check


def _progress(c: Candidate, r: Checked) -> None:
    print(f"[check] {c.reference}: {'ok' if not r.error else 'excluded: ' + r.error[:120]}", file=sys.stderr, flush=True)


def _write(path: Path, rows: list) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(r.model_dump_json() + "\n" for r in rows), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.reprove_samples", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "data" / DATA_SUBDIR)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per cut-file check")
    ap.add_argument("--no-cache", action="store_true", help="validate every sampled lemma again")
    args = ap.parse_args(argv)
    try:
        held = heldout_sample(read_entries(args.out / "dev.jsonl"))
        cache = None if args.no_cache else DEFAULT_CACHE.expanduser()
        it, failed = iter_sample(cached_validator(args.timeout, cache), workers=args.workers)
    except ReproveError as e:
        print(f"reprove_samples: {e}", file=sys.stderr)
        return 2
    _write(args.out / "dev-heldout.jsonl", held)
    _write(args.out / "dev-iter.jsonl", it)
    _write(args.out / "dev-iter-exclusions.jsonl", failed)
    print(f"dev-heldout: {len(held)} lemmas; dev-iter: {len(it)} lemmas ({len(failed)} excluded at validation) -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
