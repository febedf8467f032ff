"""Benchmark suites as tasksets: one ``load() -> Iterable[BenchProblem]`` each.

Suites (``get_suite(name, data_dir, split=)``):

- ``putnam-coq``, ``putnam-lean``: PutnamBench (Coq ``.v`` / Lean 4 ``.lean`` statements);
  subject tags from ``putnambench/putnambench.jsonl``; informal statements only when the data
  directory has ``putnambench/informal/putnam.json`` (the bundled data does not: MAA licence).
- ``minif2f-rocq``, ``minif2f-lean4`` with split ``valid``/``test``/``all`` (also spelled
  ``minif2f-rocq-test`` etc.). Rocq files are normalised as the audit of the data found
  necessary: ``Admitted.`` appended where a file ends at ``Proof.``, ``From Stdlib`` ->
  ``From Coq`` (Coq 8.16 has no ``Stdlib`` prefix).
- ``reprove-dev``, ``reprove-test``: installed Rocq libraries' lemmas re-proved in their own
  file cut after them (``benchmarks.reprove``); built by ``prover-bench reprove build``, the
  texts rebuilt from the installed sources when the suite is loaded.
- ``reprove-dev-iter``, ``reprove-dev-heldout``: the fixed samples of expert iteration
  (``benchmarks.reprove_samples``): lemmas of training files, and lemmas of held-out files.
- ``imo-lean``: compfiles IMO statements + the miniF2F IMO subset (Lean 4);
  ``imo-rocq``: the miniF2F IMO subset in Rocq.
- any directory path: every ``.lean``/``.v`` file under it (recursively), one problem each.

Data layout is that of ``benchmarks/data`` (and ``/work/shared/benchmarks``). Constructors do
no IO; ``load()`` reads the files. Missing data raises ``SuiteError`` with the path it wanted.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from pathlib import Path

from lean_tools.assistant import ASSISTANTS, assistant, assistant_for_path
from lean_tools.parsing import declaration_names
from lean_tools.session import Language

from .problem import BenchProblem

BUNDLED_DATA = Path(__file__).resolve().parent / "data"
DATA_ENV = "PROVER_BENCH_DATA"
SPLITS = ("valid", "test", "all")


class SuiteError(ValueError):
    """Unknown suite, bad split, or missing data files (message names what is missing)."""


def resolve_data_dir(flag: str | os.PathLike | None = None) -> Path:
    """``--data-dir`` flag, else ``$PROVER_BENCH_DATA``, else the bundled ``benchmarks/data``."""
    raw = flag or os.environ.get(DATA_ENV) or BUNDLED_DATA
    path = Path(raw).expanduser()
    if not path.is_dir():
        raise SuiteError(f"data directory {path} does not exist")
    return path


# --- text helpers ---------------------------------------------------------------------------



def normalize_rocq(text: str) -> str:
    """Make a miniF2F-rocq file compile as a statement under Coq 8.16 (see module docstring)."""
    text = re.sub(r"\bFrom\s+Stdlib\b", "From Coq", text)
    if text.rstrip().endswith("Proof."):
        text = text.rstrip() + "\nAdmitted.\n"
    return text


def theorem_name(text: str, language: str, prefer: str | None = None) -> str | None:
    """``prefer`` if a theorem of that name is declared, else the last declared theorem
    (declarations read by the one source parser, ``lean_tools.parsing.declaration_names``)."""
    names = declaration_names(text, language)  # type: ignore[arg-type]
    if prefer is not None and prefer in names:
        return prefer
    return names[-1] if names else None


def _source_tag(name: str) -> str:
    """miniF2F category from the problem name: ``mathd_algebra``, ``amc12``, ``imo``, ..."""
    for prefix in ("mathd_algebra", "mathd_numbertheory", "amc12", "aime", "imosl", "imo", "algebra",
                   "numbertheory", "induction"):
        if name.startswith(prefix):
            return prefix
    return name.split("_")[0]


def _putnam_number(name: str) -> str | None:
    """Putnam problem position (``a1``..``b6`` -> ``1``..``6``): the usual difficulty proxy."""
    m = re.search(r"_[ab]([1-6])$", name)
    return f"problem {m.group(1)}" if m else None


def _strip_doc_comment(s: str | None) -> str | None:
    if not s:
        return None
    s = s.strip()
    s = s.removeprefix("/--")
    s = s.removesuffix("-/")
    return s.strip() or None


def _read_jsonl(path: Path) -> list[dict]:
    if not path.is_file():
        raise SuiteError(f"missing data file {path}")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _files(directory: Path, suffixes: tuple[str, ...]) -> list[Path]:
    if not directory.is_dir():
        raise SuiteError(f"missing data directory {directory} (run `prover-bench fetch` or pass --data-dir)")
    return sorted(p for p in directory.rglob("*") if p.suffix in suffixes and p.is_file())


# --- tasksets ---------------------------------------------------------------------------------


class Taskset(ABC):
    """A benchmark: one generator method, plus ``head(n)`` and a seeded ``shuffle``."""

    name: str

    @abstractmethod
    def load(self) -> Iterable[BenchProblem]:
        """Yield the problems in a fixed order."""

    def head(self, n: int) -> Taskset:
        return _Derived(self, lambda ps: ps[: max(0, n)], f"head({n})")

    def shuffle(self, seed: int) -> Taskset:
        def _shuf(ps: list[BenchProblem]) -> list[BenchProblem]:
            ps = list(ps)
            random.Random(seed).shuffle(ps)
            return ps

        return _Derived(self, _shuf, f"shuffle({seed})")

    def version(self) -> str:
        """Hash of the full statement set (names + statement hashes) before any head/shuffle."""
        h = hashlib.sha256()
        for p in sorted(self.base().load(), key=lambda p: p.name):
            h.update(f"{p.name}\0{p.statement_hash}\n".encode())
        return h.hexdigest()[:12]

    def base(self) -> Taskset:
        return self

    def __iter__(self) -> Iterator[BenchProblem]:
        return iter(self.load())


class _Derived(Taskset):
    def __init__(self, parent: Taskset, op, label: str):
        self.parent, self.op, self.label = parent, op, label
        self.name = parent.name

    def load(self) -> list[BenchProblem]:
        return self.op(list(self.parent.load()))

    def base(self) -> Taskset:
        return self.parent.base()


_PUTNAM_LAYOUT = {"rocq": ("putnam-coq", "coq"), "lean": ("putnam-lean", "lean4")}
"""Suite name and PutnamBench's folder per proof assistant."""


class PutnamBench(Taskset):
    def __init__(self, data_dir: Path, language: Language):
        self.data_dir, self.language = Path(data_dir), language
        self.name, self._folder = _PUTNAM_LAYOUT[language]

    def _index(self) -> tuple[dict[str, list[str]], dict[str, str]]:
        tags: dict[str, list[str]] = {}
        index = self.data_dir / "putnambench" / "putnambench.jsonl"
        if index.is_file():
            for row in _read_jsonl(index):
                tags[row["name"]] = list(row.get("tags") or [])
        informal: dict[str, str] = {}
        inf = self.data_dir / "putnambench" / "informal" / "putnam.json"
        if inf.is_file():
            for row in json.loads(inf.read_text(encoding="utf-8")):
                if row.get("informal_statement"):
                    informal[row["problem_name"]] = row["informal_statement"]
                tags.setdefault(row["problem_name"], list(row.get("tags") or []))
        return tags, informal

    def load(self) -> Iterator[BenchProblem]:
        tags, informal = self._index()
        for path in _files(self.data_dir / "putnambench" / self._folder, (assistant(self.language).suffix,)):
            text = path.read_text(encoding="utf-8")
            name = path.stem
            yield BenchProblem(
                suite=self.name, name=name, language=self.language, text=text,
                theorem=theorem_name(text, self.language, prefer=name),
                tags=tuple(tags.get(name, ())), difficulty=_putnam_number(name),
                informal=informal.get(name), source=str(path.relative_to(self.data_dir)),
            )


class MiniF2FRocq(Taskset):
    def __init__(self, data_dir: Path, split: str = "test", only_prefix: str | None = None, name: str | None = None):
        if split not in SPLITS:
            raise SuiteError(f"unknown split {split!r} (expected one of {', '.join(SPLITS)})")
        self.data_dir, self.split, self.only_prefix = Path(data_dir), split, only_prefix
        self.name = name or ("minif2f-rocq" if split == "all" else f"minif2f-rocq-{split}")

    def load(self) -> Iterator[BenchProblem]:
        informal = self._informal()
        splits = ("valid", "test") if self.split == "all" else (self.split,)
        for split in splits:
            for path in _files(self.data_dir / "minif2f" / "rocq" / split, (".v",)):
                name = path.stem
                if self.only_prefix and not name.startswith(self.only_prefix):
                    continue
                text = normalize_rocq(path.read_text(encoding="utf-8"))
                yield BenchProblem(
                    suite=self.name, name=name, language="rocq", text=text,
                    theorem=theorem_name(text, "rocq", prefer=name), split=split,
                    tags=(_source_tag(name),), informal=informal.get(name),
                    source=str(path.relative_to(self.data_dir)),
                )

    def _informal(self) -> dict[str, str]:
        path = self.data_dir / "minif2f" / "minif2f_lean4.jsonl"
        if not path.is_file():
            return {}
        return {r["name"]: s for r in _read_jsonl(path) if (s := _strip_doc_comment(r.get("informal_prefix")))}


def _lean_from_row(row: dict, suite: str, source: str, tags: tuple[str, ...]) -> BenchProblem:
    stmt = row["formal_statement"]
    text = (row.get("header") or "") + stmt
    if not re.search(r"\bsorry\b", stmt):
        text = text.rstrip() + ("\n  sorry\n" if text.rstrip().endswith("by") else " := by\n  sorry\n")
    return BenchProblem(
        suite=suite, name=row["name"], language="lean", text=text,
        theorem=theorem_name(text, "lean"), split=row.get("split"), tags=tags,
        informal=_strip_doc_comment(row.get("informal_prefix") or row.get("informal")), source=source,
    )


class MiniF2FLean(Taskset):
    def __init__(self, data_dir: Path, split: str = "test"):
        if split not in SPLITS:
            raise SuiteError(f"unknown split {split!r} (expected one of {', '.join(SPLITS)})")
        self.data_dir, self.split = Path(data_dir), split
        self.name = "minif2f-lean4" if split == "all" else f"minif2f-lean4-{split}"

    def load(self) -> Iterator[BenchProblem]:
        rel = "minif2f/minif2f_lean4.jsonl"
        for row in _read_jsonl(self.data_dir / rel):
            if self.split in ("all", row.get("split")):
                yield _lean_from_row(row, self.name, rel, (_source_tag(row["name"]),))


class IMOLean(Taskset):
    """compfiles IMO statements (heuristically extracted upstream: validate before trusting)
    followed by the miniF2F IMO subset."""

    def __init__(self, data_dir: Path):
        self.data_dir, self.name = Path(data_dir), "imo-lean"

    def load(self) -> Iterator[BenchProblem]:
        rel = "imo/compfiles_imo.jsonl"
        for row in _read_jsonl(self.data_dir / rel):
            text = row["formal_statement"]
            yield BenchProblem(
                suite=self.name, name=row["name"], language="lean", text=text,
                theorem=theorem_name(text, "lean"), tags=tuple(row.get("tags") or ()),
                difficulty=f"P{row['problem']}" if row.get("problem") else None,
                informal=_strip_doc_comment(row.get("informal")), source=f"{rel}:{row['name']}",
            )
        rel = "imo/minif2f_imo.jsonl"
        for row in _read_jsonl(self.data_dir / rel):
            yield _lean_from_row(row, self.name, f"{rel}:{row['name']}", ("minif2f", _source_tag(row["name"])))


class Folder(Taskset):
    """Every ``.lean``/``.v`` file under a directory; the problem name is the relative path
    without suffix. Files are used as they are (no normalisation)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.name = f"dir:{self.path.resolve().name}"

    def load(self) -> Iterator[BenchProblem]:
        for path in _files(self.path, tuple(a.suffix for a in ASSISTANTS.values())):
            text = path.read_text(encoding="utf-8")
            language = assistant_for_path(path).name
            rel = path.relative_to(self.path)
            yield BenchProblem(
                suite=self.name, name=str(rel.with_suffix("")), language=language, text=text,
                theorem=theorem_name(text, language, prefer=path.stem), source=str(path.resolve()),
            )


class Reprove(Taskset):
    """``reprove-dev`` / ``reprove-test`` (``benchmarks.reprove``): the stored split, each text
    rebuilt from the installed Rocq sources when loaded."""

    def __init__(self, data_dir: Path, split: str, where: Path | None = None):
        """``where``: the Rocq installation (default ``$(coqc -where)``, asked by ``load``)."""
        self.data_dir, self.split, self.where = Path(data_dir), split, where
        self.name = f"reprove-{split}"

    def load(self) -> Iterator[BenchProblem]:
        from .reprove import ReproveError, load_problems

        try:
            yield from load_problems(self.data_dir, self.split, self.name, self.where)
        except ReproveError as e:
            raise SuiteError(str(e)) from None


SUITES = ("putnam-coq", "putnam-lean", "minif2f-rocq", "minif2f-lean4", "imo-lean", "imo-rocq", "reprove-dev",
          "reprove-test", "reprove-dev-iter", "reprove-dev-heldout")


def get_suite(name: str, data_dir: str | os.PathLike | None = None, split: str | None = None) -> Taskset:
    """Suite by name (see module docstring) or by directory path; raises ``SuiteError``."""
    for base in ("minif2f-rocq", "minif2f-lean4"):
        for s in SPLITS:
            if name == f"{base}-{s}":
                if split not in (None, s):
                    raise SuiteError(f"suite {name} conflicts with --split {split}")
                name, split = base, s
    if name not in SUITES:
        if Path(name).is_dir():
            return Folder(Path(name))
        raise SuiteError(f"unknown suite {name!r}: expected one of {', '.join(SUITES)}, "
                         "minif2f-{rocq,lean4}-{valid,test}, or a directory of .lean/.v files")
    if split is not None and not name.startswith("minif2f"):
        raise SuiteError(f"--split applies only to miniF2F suites, not {name}")
    data = resolve_data_dir(data_dir)
    if name.startswith("reprove-"):
        return Reprove(data, name.removeprefix("reprove-"))
    if name == "putnam-coq":
        return PutnamBench(data, "rocq")
    if name == "putnam-lean":
        return PutnamBench(data, "lean")
    if name == "minif2f-rocq":
        return MiniF2FRocq(data, split or "test")
    if name == "minif2f-lean4":
        return MiniF2FLean(data, split or "test")
    if name == "imo-lean":
        return IMOLean(data)
    return MiniF2FRocq(data, "all", only_prefix="imo", name="imo-rocq")
