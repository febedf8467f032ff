"""``prover-bench table``: the results table of the README, built from committed result databases.

Which runs appear is chosen by a manifest (TOML, default ``results/table.toml``), one
``[[run]]`` table per row::

    [[run]]
    db = "minif2f-rocq-test/default@3ccef1f.db"  # relative to the manifest
    label = "default"                            # the run's label in that database
    code_version = "3ccef1f"                     # optional: picks one run when several share the label
    suite = "miniF2F Rocq"                       # shown as is
    split = "test"                               # checked against the problems' split when they have one
    use = "held-out"                             # optional: held-out | development | tuned-on
    preset = "default"                           # optional: checked against the run's config
                                                 # (a note may follow in parentheses: "lm (round 2)")
    union = [{db = "minif2f-rocq-test/hammer@3ccef1f.db", label = "hammer"}]   # optional

(a union row's ``preset`` names the combination and is not checked against one config).
A row with ``union`` counts a problem solved when any of its runs solved it (the union of what
several presets prove), over the problems of all of them; its checker CPU is their sum.

Every number comes from the database: problems solved (at least one attempt whose proof the
soundness verdict accepted) over problems run, pass@1, the attempt budget (the config's search
budget when it has one, else the run's per-attempt timeout), the checker CPU seconds of all
attempts, and the code version the run recorded. A manifest entry that matches no run, or more
than one, or whose split or preset disagrees with the database, is an error (``TableError``).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from . import analysis
from .db import DBError, ResultsDB

DEFAULT_MANIFEST = Path(__file__).resolve().parents[1] / "results" / "table.toml"

USES = {"held-out": "held out", "development": "development", "tuned-on": "read while tuning"}
"""How a split was used while the prover was built, as the table words it."""

HEADER = ("| suite | split | preset | solved / total | pass@1 | budget per attempt | checker CPU s | code |\n"
          "|---|---|---|---|---|---|---|---|")


class TableError(Exception):
    """The manifest or a database it names cannot give the row it asks for."""


@dataclass(frozen=True)
class Entry:
    """One manifest row: which run to show and how to name it."""

    db: Path
    label: str
    suite: str
    split: str
    code_version: str = ""
    use: str = ""
    preset: str = ""
    union: tuple[tuple[Path, str, str], ...] = ()
    """Further (database, label, code version or "") runs whose solved problems this row adds."""


@dataclass(frozen=True)
class Row:
    """One rendered line of the table, all numbers read from the database."""

    suite: str
    split: str
    preset: str
    solved: int
    total: int
    pass_at_1: float
    budget: str
    checker_cpu_s: float
    code_version: str


_FIELDS = {"db", "label", "suite", "split", "code_version", "use", "preset", "union"}


def _entry(raw: object, base: Path, n: int) -> Entry:
    where = f"run #{n}"
    if not isinstance(raw, dict):
        raise TableError(f"{where}: expected a table of fields, got {type(raw).__name__}")
    unknown = set(raw) - _FIELDS
    if unknown:
        raise TableError(f"{where}: unknown field(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(_FIELDS))})")
    for key in ("db", "label", "suite", "split"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise TableError(f"{where}: field {key!r} is required (a non-empty string)")
    for key in ("code_version", "use", "preset"):
        if not isinstance(raw.get(key, ""), str):
            raise TableError(f"{where}: field {key!r} must be a string")
    use = raw.get("use", "")
    if use and use not in USES:
        raise TableError(f"{where}: use {use!r} is not one of {', '.join(USES)}")
    union = raw.get("union", [])
    if not isinstance(union, list) or not all(isinstance(u, dict) and isinstance(u.get("db"), str) and isinstance(u.get("label"), str)
                                              for u in union):
        raise TableError(f"{where}: union must be a list of {{db = ..., label = ...}} tables")
    return Entry(db=base / raw["db"], label=raw["label"], suite=raw["suite"], split=raw["split"],
                 code_version=raw.get("code_version", ""), use=use, preset=raw.get("preset", ""),
                 union=tuple((base / u["db"], u["label"], str(u.get("code_version", ""))) for u in union))


def load_manifest(path: str | Path) -> list[Entry]:
    """The manifest's entries, in order; database paths are resolved against its folder."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TableError(f"no such manifest: {path}") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise TableError(f"{path}: unreadable manifest: {e}") from None
    runs = data.get("run")
    if not isinstance(runs, list) or not runs:
        raise TableError(f"{path}: no [[run]] entries")
    return [_entry(raw, path.parent, i) for i, raw in enumerate(runs, 1)]


def budget_text(config: dict, timeout_s: float) -> str:
    """The attempt budget as the config states it (the search budget of a preset), else the
    runner's per-attempt timeout."""
    budget = config.get("budget")
    if not isinstance(budget, dict) or "seconds" not in budget:
        return f"{timeout_s:g} s"
    clock = str(budget.get("clock", "wall"))  # SearchBudget's default clock
    text = f"{float(budget['seconds']):g} s {'CPU' if clock == 'cpu' else clock}"
    extras = []
    if "hammer_seconds" in budget:
        extras.append(f"hammer call {float(budget['hammer_seconds']):g} s")
    if "inner_timeout" in budget:
        extras.append(f"{float(budget['inner_timeout']):g} s per tactic")
    return text + (f" ({', '.join(extras)})" if extras else "")


def _pick(entry: Entry, runs: list[analysis.Run]) -> analysis.Run:
    found = [r for r in runs if r.label == entry.label
             and (not entry.code_version or r.code_version == entry.code_version)]
    if len(found) != 1:
        have = ", ".join(f"{r.label}@{r.code_version or 'unrecorded'}" for r in runs) or "none"
        what = f"label {entry.label!r}" + (f" at code {entry.code_version!r}" if entry.code_version else "")
        raise TableError(f"{entry.db}: {len(found)} runs match {what} (runs there: {have})")
    return found[0]


def build_row(entry: Entry) -> Row:
    """Read the entry's run from its database and check the manifest's split and preset against it."""
    if not entry.db.is_file():
        raise TableError(f"no such results database: {entry.db}")
    try:
        ds = analysis.load([entry.db])
        run = _pick(entry, ds.runs)
        with ResultsDB(entry.db, readonly=True) as db:
            config = json.loads(db.conn.execute("SELECT config FROM runs WHERE run_key=?", (run.run_key,)).fetchone()[0])
    except DBError as e:
        raise TableError(str(e)) from None
    splits = {str(s) for p in run.attempts if (s := ds.problems.get(p, {}).get("split"))}
    if splits and splits != {entry.split}:
        raise TableError(f"{entry.db}: the manifest says split {entry.split!r}, the run's problems are "
                         f"{', '.join(sorted(splits))}")
    preset = config.get("preset", "") if isinstance(config, dict) else ""
    if entry.preset and preset and entry.preset.split(" (")[0] != preset and not entry.union:
        raise TableError(f"{entry.db}: the manifest says preset {entry.preset!r}, the run's config says {preset!r}")
    passk = analysis.pass_table(run)
    all_attempts = [a for atts in run.attempts.values() for a in atts]
    split = f"{entry.split} ({USES[entry.use]})" if entry.use else entry.split
    row = Row(suite=entry.suite, split=split, preset=entry.preset or preset or "-", solved=len(run.solved()),
              total=len(run.attempts), pass_at_1=passk[0][1] if passk else 0.0,
              budget=budget_text(config if isinstance(config, dict) else {}, run.timeout_s),
              checker_cpu_s=sum(a.checker_cpu_s for a in all_attempts),
              code_version=run.code_version or "not recorded")
    return _with_union(row, entry, run) if entry.union else row


def _with_union(row: Row, entry: Entry, run: analysis.Run) -> Row:
    """``row`` counting the problems any of ``entry.union``'s runs solved as well."""
    solved, problems, cpu, versions = set(run.solved()), set(run.attempts), row.checker_cpu_s, [row.code_version]
    for db, label, code in entry.union:
        if not db.is_file():
            raise TableError(f"no such results database: {db}")
        try:
            other = _pick(Entry(db=db, label=label, suite="", split="", code_version=code), analysis.load([db]).runs)
        except DBError as e:
            raise TableError(str(e)) from None
        solved |= set(other.solved())
        problems |= set(other.attempts)
        cpu += sum(a.checker_cpu_s for atts in other.attempts.values() for a in atts)
        versions.append(other.code_version or "not recorded")
    share = len(solved) / len(problems) if problems else 0.0
    return Row(suite=row.suite, split=row.split, preset=row.preset, solved=len(solved), total=len(problems), pass_at_1=share,
               budget=row.budget, checker_cpu_s=cpu, code_version="`, `".join(dict.fromkeys(versions)))


def render(rows: list[Row]) -> str:
    """The Markdown table, one line per row, ending with a newline."""
    lines = [HEADER]
    for r in rows:
        lines.append(f"| {r.suite} | {r.split} | {r.preset} | {r.solved}/{r.total} | {100 * r.pass_at_1:.1f}% | "
                     f"{r.budget} | {r.checker_cpu_s:,.0f} | `{r.code_version}` |")
    return "\n".join(lines) + "\n"


def table(manifest: str | Path = DEFAULT_MANIFEST) -> str:
    """The rendered table for a manifest."""
    return render([build_row(e) for e in load_manifest(manifest)])
