"""The ``reprove`` benchmark: installed Rocq libraries' own lemmas, re-proved in their own file.

As CoqHammer and Tactician are measured: a lemma is stated where its library states it, with
everything its file has before it available (and every library that file loads), and
nothing after it. Here the problem is the library's source file cut after the lemma's
statement (``benchmarks.reprove_cut``), compiled under a fresh logical name with the installed
libraries on the load path; ``lean_tools.soundness.reprove_checks`` then rejects proofs that
load anything new (the only way to reach the original lemma).

Sources: Debian installs the ``.v`` files beside the ``.vo`` files: ``$(coqc -where)/theories``
is the standard library (``stdlib``, logical prefix ``Coq``), each folder of
``$(coqc -where)/user-contrib`` one library whose name is its prefix (``stdpp``, ``mathcomp``,
``Flocq``, ...). A library without ``.v`` files (Interval) is recorded as excluded.

Splits, fixed before any tuning, seeded (``SEED``):
- ``dev``: ``DEV_SIZE`` lemmas from the held-out files (``benchmarks.library_split``) of the
  development libraries (stdlib, stdpp); the other files of those libraries are training data.
- ``test``: ``TEST_SIZE`` lemmas from every other library with sources.
Each split gives every library an equal quota (a library with fewer usable lemmas gives the rest
to the others), so mathcomp does not drown the rest. Within a library, lemmas are taken in the
order of a hash of (seed, library, file, name), so the sample does not depend on traversal
order; each taken lemma must validate (the cut file compiles, in a fresh ``coqc`` with its
flags, and does not load the original's module), else it is excluded with coqc's message and
the next one is taken.

Data (``benchmarks/data/reprove/``): ``dev.jsonl``, ``test.jsonl`` hold references (library,
file, offsets, flags, the source file's sha256), not file texts; the text is rebuilt from the
installed source when the suite is loaded, and a source whose sha256 changed is a ``ReproveError``.
``exclusions.jsonl``: every lemma of the pooled files that cannot be a problem, with its reason.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache as cache_fn
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from .library_split import DEVELOPMENT_LIBRARIES, is_held_out
from .problem import BenchProblem
from .reprove_cut import LemmaSite, Scope, cut_text, scan_file

SEED = 20261202
DEV_SIZE = 100
TEST_SIZE = 150
SPLIT_NAMES = ("dev", "test")
SAMPLE_NAMES = ("dev-iter", "dev-heldout")
"""Fixed samples of the development libraries for expert iteration (``benchmarks.reprove_samples``),
stored beside the splits and loaded the same way."""
DATA_SUBDIR = "reprove"
COQLIB = "{coqlib}"
"""Placeholder for ``$(coqc -where)`` in stored flags, expanded when the suite is loaded."""


class ReproveError(ValueError):
    """Missing or stale data (a split file, an installed source that changed), or no Rocq."""


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ReproveEntry(_Record):
    """One problem of a reprove split, as stored: where the lemma is, not the cut text."""

    name: str
    """Problem name: the original lemma's qualified name."""
    library: str
    relpath: str
    """The source file, POSIX, relative to the library's root."""
    lemma: str
    """The declared (short) name: the theorem the prover targets."""
    reference: str
    """The original constant's qualified name, e.g. ``Coq.Lists.List.app_nil_r``."""
    decl_start: int
    statement_end: int
    """Cut point: just past the lemma's statement sentence (code points of the source text)."""
    proof_line: str
    scopes: tuple[str, ...]
    """``Section``/``Module`` names open at the lemma, outermost first (closed by ``End``)."""
    flags: tuple[str, ...]
    """coqc flags, ``{coqlib}`` standing for ``$(coqc -where)``."""
    source_sha256: str


class Exclusion(_Record):
    """A library, file or lemma of a split's pool that is not a problem, and why."""

    split: str
    library: str
    relpath: str = ""
    lemma: str = ""
    stage: str
    """``library`` (no sources / no lemmas), ``file`` (does not lex), ``scan`` (the lemma's
    shape, ``benchmarks.reprove_cut``), ``validate`` (the cut file does not compile)."""
    reason: str


@dataclass(frozen=True)
class Library:
    """An installed library: its name, the folder of its sources and its logical prefix."""

    name: str
    root: Path
    prefix: str


@dataclass(frozen=True)
class Candidate:
    """A usable lemma site of a pooled file, with what is needed to cut and validate it."""

    library: Library
    relpath: str
    site: LemmaSite
    sha256: str

    @property
    def reference(self) -> str:
        return f"{module_name(self.library, self.relpath)}.{self.site.qualified}"


@cache_fn
def coqlib() -> Path:
    """``$(coqc -where)``; ``ReproveError`` when coqc is missing."""
    coqc = shutil.which("coqc")
    if coqc is None:
        raise ReproveError("the reprove suites need Rocq (coqc not found; run `prover-setup rocq`)")
    out = subprocess.run([coqc, "-where"], capture_output=True, text=True, timeout=30, check=False)
    return Path(out.stdout.strip())


def installed_libraries(where: Path) -> list[Library]:
    """stdlib (``theories``, prefix ``Coq``) and each ``user-contrib`` folder, sorted by name."""
    libs = [Library("stdlib", where / "theories", "Coq")]
    contrib = where / "user-contrib"
    if contrib.is_dir():
        libs += [Library(p.name, p, p.name) for p in sorted(contrib.iterdir()) if p.is_dir()]
    return libs


def module_name(lib: Library, relpath: str) -> str:
    """Logical name of a source file: ``Coq.Lists.List`` for ``stdlib``'s ``Lists/List.v``."""
    return ".".join((lib.prefix, *relpath.removesuffix(".v").split("/")))


def library_flags(lib: Library, relpath: str) -> tuple[str, ...]:
    """coqc flags under which a cut file of ``relpath`` compiles (``{coqlib}`` placeholder):
    ``-noinit`` for the standard library's ``Init`` files (they build the prelude); for a
    ``user-contrib`` library, ``-R`` of its root on its prefix, so its files' short
    ``Require``s (``Require Import Zaux.``) resolve as they did when it was built."""
    if lib.name == "stdlib":
        return ("-noinit",) if relpath.startswith("Init/") else ()
    return ("-R", f"{COQLIB}/user-contrib/{lib.root.name}", lib.prefix)


def expand_flags(flags: tuple[str, ...], where: Path) -> tuple[str, ...]:
    return tuple(f.replace(COQLIB, str(where)) for f in flags)


def rank(seed: int, library: str, relpath: str, qualified: str) -> str:
    """Sampling order within a library: a hash, independent of how files were listed."""
    return hashlib.sha256(f"{seed}\0{library}\0{relpath}\0{qualified}".encode()).hexdigest()


def allocate(total: int, capacity: dict[str, int]) -> dict[str, int]:
    """Equal quotas summing to ``min(total, sum(capacity))``; a library that cannot fill its
    share keeps what it has and the rest is shared among the others (remainders go to the
    libraries first in name order)."""
    quota = dict.fromkeys(capacity, 0)
    left = min(total, sum(capacity.values()))
    while left > 0:
        open_ = sorted(k for k in capacity if quota[k] < capacity[k])
        share, extra = divmod(left, len(open_))
        for i, k in enumerate(open_):
            give = min(share + (1 if i < extra else 0), capacity[k] - quota[k])
            quota[k] += give
            left -= give
    return quota


# --- pools ---------------------------------------------------------------------------------


def _in_split(split: str, lib: Library, relpath: str) -> bool:
    """``dev``: held-out files of the development libraries; ``train``: their other files (the
    pool of ``benchmarks.reprove_samples``' ``dev-iter``); ``test``: every other library."""
    if split == "dev":
        return lib.name in DEVELOPMENT_LIBRARIES and is_held_out(lib.name, relpath)
    if split == "train":
        return lib.name in DEVELOPMENT_LIBRARIES and not is_held_out(lib.name, relpath)
    return lib.name not in DEVELOPMENT_LIBRARIES


def pool(split: str, libraries: list[Library]) -> tuple[dict[str, list[Candidate]], list[Exclusion]]:
    """The usable lemmas of ``split``'s files per library (in sampling order) and the exclusions
    met while scanning them."""
    out: dict[str, list[Candidate]] = {}
    excl: list[Exclusion] = []
    for lib in libraries:
        if (split in ("dev", "train")) != (lib.name in DEVELOPMENT_LIBRARIES):
            continue
        files = sorted(lib.root.rglob("*.v"))
        if not files:
            excl.append(Exclusion(split=split, library=lib.name, stage="library", reason="no .v sources installed"))
            continue
        found: list[Candidate] = []
        for path in files:
            relpath = path.relative_to(lib.root).as_posix()
            if _in_split(split, lib, relpath):
                _scan(split, lib, relpath, found, excl)
        if not found:
            excl.append(Exclusion(split=split, library=lib.name, stage="library", reason="no usable theorem-like declarations"))
            continue
        out[lib.name] = sorted(found, key=lambda c: rank(SEED, c.library.name, c.relpath, c.site.qualified))
    return out, excl


def _scan(split: str, lib: Library, relpath: str, found: list[Candidate], excl: list[Exclusion]) -> None:
    """Add the usable lemmas of one file to ``found`` and the others to ``excl``."""
    raw = (lib.root / relpath).read_bytes()
    where = {"split": split, "library": lib.name, "relpath": relpath}
    try:
        sites = scan_file(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        excl.append(Exclusion(**where, stage="file", reason=f"{type(e).__name__}: {e}"[:300]))
        return
    sha = hashlib.sha256(raw).hexdigest()
    for site in sites:
        if site.exclusion:
            excl.append(Exclusion(**where, lemma=site.qualified, stage="scan", reason=site.exclusion))
        else:
            found.append(Candidate(lib, relpath, site, sha))


# --- validation and sampling --------------------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    """Validation of one candidate: ``error`` is "" when the cut file is a good problem."""

    error: str
    cpu_s: float = 0.0


Validator = Callable[[Candidate], Checked]


def validate_candidate(cand: Candidate, *, timeout: float = 300.0, nice: int = 10) -> Checked:
    """Cut, then compile in a fresh sandboxed ``coqc`` with the file's flags; the problem file
    must also not load the original's module (``reprove_checks.library_reason``)."""
    from lean_tools.soundness.reprove_checks import library_reason, loaded_libraries

    where = coqlib()
    text = cut_text((cand.library.root / cand.relpath).read_text(encoding="utf-8"), cand.site)
    flags = expand_flags(library_flags(cand.library, cand.relpath), where)
    got = loaded_libraries(text, flags, timeout=timeout, nice=nice)
    if got.libraries is None:
        return Checked(got.error or "does not compile", got.cpu_seconds)
    why = library_reason(got.libraries, got.libraries, module_name(cand.library, cand.relpath))
    return Checked(why or "", got.cpu_seconds)


def sample(split: str, candidates: dict[str, list[Candidate]], size: int, validator: Validator, *,
           workers: int = 2, progress: Callable[[Candidate, Checked], None] | None = None) -> tuple[list[Candidate], list[Exclusion]]:
    """Equal quotas per library (``allocate``); each library's candidates validated in order,
    ``workers`` at a time, until its quota is met; a library that runs out gives its remaining
    quota to the others. Returns the kept candidates and the validation exclusions."""
    results: dict[tuple[str, int], Checked] = {}
    capacity = {lib: len(cs) for lib, cs in candidates.items()}
    kept: dict[str, list[Candidate]] = {}
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool_:
        while True:
            quota = allocate(size, capacity)
            for lib, cs in candidates.items():
                kept[lib] = _take(cs, quota[lib], results, validator, pool_, workers, progress)
            short = {lib for lib in candidates if len(kept[lib]) < quota[lib] and capacity[lib] > len(kept[lib])}
            if not short:
                break
            for lib in short:
                capacity[lib] = len(kept[lib])
    excl = [
        Exclusion(split=split, library=c.library.name, relpath=c.relpath, lemma=c.site.qualified, stage="validate", reason=r.error)
        for lib, cs in candidates.items() for c in cs
        if (r := results.get((lib, id(c)))) is not None and r.error
    ]
    return [c for lib in sorted(kept) for c in kept[lib]], excl


def _take(cs: list[Candidate], want: int, results: dict, validator: Validator, pool_: ThreadPoolExecutor,
          workers: int, progress) -> list[Candidate]:
    """The first ``want`` candidates of ``cs`` that validate (validating ``workers`` at once)."""
    good: list[Candidate] = []
    i = 0
    while len(good) < want and i < len(cs):
        batch = cs[i : i + max(1, min(workers, want - len(good)))]
        i += len(batch)
        todo = [c for c in batch if (c.library.name, id(c)) not in results]
        for c, r in zip(todo, pool_.map(validator, todo), strict=True):
            results[(c.library.name, id(c))] = r
            if progress:
                progress(c, r)
        good += [c for c in batch if not results[(c.library.name, id(c))].error]
    return good[:want]


# --- stored splits ---------------------------------------------------------------------------


TIMED_OUT = "timed out after"


def _cache_key(c: Candidate) -> str:
    blob = json.dumps([c.sha256, c.site.statement_end, c.site.proof_line, [s.name for s in c.site.scopes],
                       library_flags(c.library, c.relpath), _coqc_version()])
    return hashlib.sha256(blob.encode()).hexdigest()


@cache_fn
def _coqc_version() -> str:
    coqc = shutil.which("coqc") or "coqc"
    out = subprocess.run([coqc, "--version"], capture_output=True, text=True, timeout=30, check=False)
    return " ".join(out.stdout.split())


def _read_cache(path: Path | None) -> dict[str, Checked]:
    if path is None or not path.is_file():
        return {}
    out: dict[str, Checked] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
            out[row["key"]] = Checked(row["error"], row["cpu_s"])
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short by an interrupted build
    return out


def to_entry(c: Candidate) -> ReproveEntry:
    return ReproveEntry(
        name=c.reference, library=c.library.name, relpath=c.relpath, lemma=c.site.name, reference=c.reference,
        decl_start=c.site.decl_start, statement_end=c.site.statement_end, proof_line=c.site.proof_line,
        scopes=tuple(s.name for s in c.site.scopes), flags=library_flags(c.library, c.relpath), source_sha256=c.sha256,
    )


def _write_jsonl(path: Path, rows: list[BaseModel]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(r.model_dump_json() + "\n" for r in rows), encoding="utf-8")


@dataclass(frozen=True)
class BuildSummary:
    """What ``build`` wrote: problems per split and library, exclusions per stage."""

    problems: dict[str, dict[str, int]]
    exclusions: dict[str, int]
    cpu_s: float


def build(out_dir: Path, *, workers: int = 2, timeout: float = 300.0, sizes: dict[str, int] | None = None,
          validator: Validator | None = None, where: Path | None = None, cache: Path | None = None,
          progress: Callable[[Candidate, Checked], None] | None = None) -> BuildSummary:
    """Scan the installed libraries, sample and validate both splits, write ``dev.jsonl``,
    ``test.jsonl`` and ``exclusions.jsonl`` under ``out_dir``. Deterministic for a given
    installation (validation timeouts aside: ``timeout`` is generous for that reason).
    ``cache``: a JSONL of validation results keyed by source file, cut point, flags and coqc
    version, read and extended (timeouts are not cached), so a rebuild re-checks nothing."""
    sizes = sizes or {"dev": DEV_SIZE, "test": TEST_SIZE}
    libs = installed_libraries(where or coqlib())
    cpu = [0.0]
    known = _read_cache(cache)
    lock = threading.Lock()

    def check(c: Candidate) -> Checked:
        key = _cache_key(c)
        if key in known:
            return known[key]
        r = (validator or (lambda x: validate_candidate(x, timeout=timeout)))(c)
        with lock:
            cpu[0] += r.cpu_s
            if cache is not None and TIMED_OUT not in r.error:
                cache.parent.mkdir(parents=True, exist_ok=True)
                with cache.open("a", encoding="utf-8") as f:
                    f.write(json.dumps({"key": key, "error": r.error, "cpu_s": r.cpu_s}) + "\n")
        return r

    excl: list[Exclusion] = []
    counts: dict[str, dict[str, int]] = {}
    for split in SPLIT_NAMES:
        cands, scanned = pool(split, libs)
        kept, failed = sample(split, cands, sizes[split], check, workers=workers, progress=progress)
        entries = sorted((to_entry(c) for c in kept), key=lambda e: (e.library, e.relpath, e.decl_start))
        _write_jsonl(out_dir / f"{split}.jsonl", list(entries))
        excl += scanned + failed
        counts[split] = {lib: sum(e.library == lib for e in entries) for lib in sorted({e.library for e in entries})}
    excl.sort(key=lambda x: (x.split, x.library, x.relpath, x.stage, x.lemma))
    _write_jsonl(out_dir / "exclusions.jsonl", list(excl))
    stages: dict[str, int] = {}
    for x in excl:
        stages[f"{x.split}/{x.stage}"] = stages.get(f"{x.split}/{x.stage}", 0) + 1
    return BuildSummary(problems=counts, exclusions=stages, cpu_s=cpu[0])


def read_entries(path: Path) -> list[ReproveEntry]:
    if not path.is_file():
        raise ReproveError(f"missing data file {path} (build it with `prover-bench reprove build`)")
    try:
        return [ReproveEntry.model_validate_json(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except ValueError as e:
        raise ReproveError(f"{path}: not a reprove split file: {str(e).splitlines()[0]}") from None


def problem_text(entry: ReproveEntry, where: Path) -> str:
    """The cut file of ``entry``, rebuilt from the installed source; ``ReproveError`` when the
    source is missing or is not the file the split was built from (sha256)."""
    lib = next((x for x in installed_libraries(where) if x.name == entry.library), None)
    path = (lib.root / entry.relpath) if lib else where / entry.library / entry.relpath
    if lib is None or not path.is_file():
        raise ReproveError(f"{entry.name}: source {path} is not installed (library {entry.library}); "
                         "the reprove suites need the Rocq library sources the split was built from")
    raw = path.read_bytes()
    if hashlib.sha256(raw).hexdigest() != entry.source_sha256:
        raise ReproveError(f"{entry.name}: {path} differs from the file the split was built from (sha256 changed: "
                         "another version of the library is installed); rebuild with `prover-bench reprove build`")
    scopes = tuple(Scope("section", s) for s in entry.scopes)
    site = LemmaSite(name=entry.lemma, module_path=(), decl_start=entry.decl_start, statement_end=entry.statement_end,
                     proof_line=entry.proof_line, scopes=scopes)
    return cut_text(raw.decode("utf-8"), site)


def load_problems(data_dir: Path, split: str, suite: str, where: Path | None = None) -> Iterator[BenchProblem]:
    """The problems of the stored ``split`` under ``data_dir/reprove``, each text rebuilt from the
    installed sources (``where``: the Rocq installation, default ``$(coqc -where)``). Problems
    carry ``flags`` and ``reference``. Raises ``ReproveError`` for missing or stale data."""
    if split not in SPLIT_NAMES + SAMPLE_NAMES:
        raise ReproveError(f"unknown reprove split {split!r} (expected one of {', '.join(SPLIT_NAMES + SAMPLE_NAMES)})")
    entries = read_entries(Path(data_dir) / DATA_SUBDIR / f"{split}.jsonl")
    where = where or coqlib()
    for e in entries:
        yield BenchProblem(
            suite=suite, name=e.name, language="rocq", text=problem_text(e, where), theorem=e.lemma,
            split=split, tags=(e.library,), source=f"{e.library}:{e.relpath}",
            flags=expand_flags(e.flags, where), reference=e.reference,
        )


DEFAULT_CACHE = Path("~/.cache/agentic-prover/reprove-validation.jsonl")


def build_command(*, out: str | None, workers: int, timeout: float, cache: str | None, use_cache: bool) -> int:
    """``prover-bench reprove build``: ``build`` with progress lines and a summary."""
    out_dir = Path(out).expanduser() if out else Path(__file__).resolve().parent / "data" / DATA_SUBDIR
    cache_path = Path(cache or DEFAULT_CACHE).expanduser() if use_cache else None
    n = [0]

    def progress(c: Candidate, r: Checked) -> None:
        n[0] += 1
        print(f"[check {n[0]}] {c.reference}: {'ok' if not r.error else 'excluded: ' + r.error[:120]}", flush=True)

    summ = build(out_dir, workers=workers, timeout=timeout, cache=cache_path, progress=progress)
    for split, per in summ.problems.items():
        print(f"reprove-{split}: {sum(per.values())} problems ({', '.join(f'{k} {v}' for k, v in per.items())})")
    print("exclusions: " + ", ".join(f"{k} {v}" for k, v in sorted(summ.exclusions.items())))
    print(f"written to {out_dir} ({summ.cpu_s:.0f} coqc CPU-s spent on checks)")
    return 0
