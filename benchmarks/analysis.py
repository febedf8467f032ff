"""Read results databases into plain records and compute the numbers a report shows.

What is covered: per-run tables (problems, attempts, solved, outcomes, pass@k for a grid of
k, per tag and per difficulty), excluded statements with reasons, sweeps (runs of one suite
version and one prover config at several per-attempt budgets: pass@k over the grid of k x
budget, with the expected cost of each point on three axes and a log-linear fit), and a
per-problem comparison of two runs.
What is not covered: rendering (``benchmarks.report``) and plotting (``benchmarks.plots``).

Only finished attempts (``status='done'``) count. A run where some problems have fewer
attempts than others (interrupted) is reported as partial: pass@k uses only the problems
with at least k attempts, and the table says how many those are.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .db import ResultsDB
from .metrics import Fit, k_grid, loglinear_fit, mean_pass_at_k

COST_AXES = ("checker_cpu_s", "tokens", "combined")


@dataclass(frozen=True)
class Attempt:
    problem_id: str
    seed: int
    outcome: str
    tokens: int
    checker_cpu_s: float
    wall_s: float
    reason: str
    model_s: float | None = None
    """The tactic model's seconds inside the attempt; None = unknown (not measured, or a database
    written before the column existed)."""
    knn_s: float | None = None
    """The k-NN index's seconds inside the attempt; None = unknown."""


@dataclass
class Run:
    run_key: str
    label: str
    suite: str
    suite_version: str
    config_hash: str
    timeout_s: float
    command: str
    source: str
    attempts: dict[str, list[Attempt]] = field(default_factory=dict)
    code_version: str = ""
    """``git describe --always --dirty`` of the code that ran ("" in databases of schema 1)."""
    shuffle_seed: int | None = None
    running: int = 0

    @property
    def n_attempts(self) -> int:
        return sum(len(v) for v in self.attempts.values())

    def solved(self) -> set[str]:
        return {p for p, atts in self.attempts.items() if any(a.outcome == "proved" for a in atts)}

    def counts(self, problems=None) -> list[tuple[int, int]]:
        ids = self.attempts if problems is None else problems
        return [(len(self.attempts[p]), sum(a.outcome == "proved" for a in self.attempts[p])) for p in ids]

    def max_n(self) -> int:
        return max((len(v) for v in self.attempts.values()), default=0)

    def partial(self) -> bool:
        ns = {len(v) for v in self.attempts.values()}
        return len(ns) > 1


@dataclass
class Dataset:
    runs: list[Run]
    problems: dict[str, dict]
    """problem_id -> {suite, name, tags, difficulty, language}"""
    validation: dict[str, tuple[str, str, str]]
    """problem_id -> (status, reason, environment), latest check of the current statement."""


def load(paths: list[str | Path]) -> Dataset:
    """Load one or more results DBs (``DBError`` on a bad file). Run labels get the DB name
    appended when two DBs use the same label."""
    runs: list[Run] = []
    problems: dict[str, dict] = {}
    validation: dict[str, tuple[str, str, str]] = {}
    for path in paths:
        with ResultsDB(path, readonly=True) as db:
            c = db.conn
            for r in c.execute("SELECT * FROM problems"):
                problems[r["problem_id"]] = {"suite": r["suite"], "name": r["name"], "language": r["language"],
                                             "tags": json.loads(r["tags"]), "difficulty": r["difficulty"],
                                             "split": r["split"], "statement_hash": r["statement_hash"]}
            for r in c.execute("SELECT v.* FROM validation v JOIN problems p ON p.problem_id=v.problem_id "
                               "AND p.statement_hash=v.statement_hash ORDER BY v.checked_at"):
                validation[r["problem_id"]] = (r["status"], r["reason"], r["environment"])
            for r in c.execute("SELECT * FROM runs ORDER BY created_at"):
                run = Run(run_key=r["run_key"], label=r["label"], suite=r["suite"], suite_version=r["suite_version"],
                          config_hash=r["config_hash"], timeout_s=r["timeout_s"], command=r["command"], source=str(path),
                          code_version=r["code_version"] if "code_version" in r.keys() else "",  # noqa: SIM118 - `in` on a sqlite3.Row tests values
                          shuffle_seed=r["shuffle_seed"] if "shuffle_seed" in r.keys() else None)  # noqa: SIM118
                run.running = c.execute("SELECT COUNT(*) FROM attempts WHERE run_key=? AND status='running'",
                                        (run.run_key,)).fetchone()[0]
                for a in c.execute("SELECT * FROM attempts WHERE run_key=? AND status='done' ORDER BY problem_id, seed",
                                   (run.run_key,)):
                    run.attempts.setdefault(a["problem_id"], []).append(_attempt(a))
                runs.append(run)
    labels = Counter(r.label for r in runs)
    for r in runs:
        if labels[r.label] > 1 and len(paths) > 1:
            r.label = f"{r.label} [{Path(r.source).name}]"
    return Dataset(runs=runs, problems=problems, validation=validation)


def _attempt(row) -> Attempt:
    """An ``attempts`` row (``sqlite3.Row``) as a record; a column the file lacks reads as None."""
    cols = row.keys()
    return Attempt(row["problem_id"], row["seed"], row["outcome"], row["tokens"] or 0, row["checker_cpu_s"] or 0.0,
                   row["wall_s"] or 0.0, row["reason"] or "",
                   model_s=row["model_s"] if "model_s" in cols else None,
                   knn_s=row["knn_s"] if "knn_s" in cols else None)


def excluded(ds: Dataset, suite: str) -> list[tuple[str, str, str]]:
    """(problem name, status, reason) for the suite's statements whose validation is not ok."""
    out = []
    for pid, p in ds.problems.items():
        if p["suite"] == suite and pid in ds.validation and ds.validation[pid][0] != "ok":
            out.append((p["name"], ds.validation[pid][0], ds.validation[pid][1]))
    return sorted(out)


def coverage(ds: Dataset, suite: str) -> dict:
    """How much of the suite's statement set was looked at: total, validated ok/excluded, not examined."""
    ids = [pid for pid, p in ds.problems.items() if p["suite"] == suite]
    status = Counter(ds.validation[pid][0] if pid in ds.validation else "not examined" for pid in ids)
    return {"statements": len(ids), "ok": status.get("ok", 0),
            "excluded": status.get("failed", 0) + status.get("unvalidated", 0),
            "not_examined": status.get("not examined", 0)}


def failure_reasons(run: Run, top: int = 8) -> list[tuple[str, int]]:
    """Most common reasons of unsuccessful attempts, normalised (temp paths and numbers blurred)."""
    import re

    c: Counter = Counter()
    for atts in run.attempts.values():
        for a in atts:
            if a.outcome != "proved":
                r = re.sub(r"/tmp/\S+", "<file>", a.reason or "(no reason)")
                r = " ".join(re.sub(r"\d+(\.\d+)?", "N", r).split())
                c[f"{a.outcome}: {r[:90]}"] += 1
    return c.most_common(top)


def pass_table(run: Run, problem_ids=None) -> list[tuple[int, float, int]]:
    """(k, pass@k, number of problems with >= k attempts) over the grid of k."""
    ids = list(run.attempts if problem_ids is None else problem_ids)
    rows = []
    for k in k_grid(max((len(run.attempts[p]) for p in ids), default=0)):
        eligible = [p for p in ids if len(run.attempts[p]) >= k]
        rows.append((k, mean_pass_at_k(run.counts(eligible), k), len(eligible)))
    return rows


def by_group(ds: Dataset, run: Run, key: str) -> dict[str, list[str]]:
    """Problem ids of ``run`` grouped by each tag (``key='tags'``) or by difficulty."""
    groups: dict[str, list[str]] = defaultdict(list)
    for pid in run.attempts:
        meta = ds.problems.get(pid, {})
        if key == "tags":
            values = list(meta.get("tags") or [])
        else:
            values = [meta["difficulty"]] if meta.get("difficulty") else []
        for v in values:
            groups[v].append(pid)
    return dict(sorted(groups.items()))


RECHECK_REJECTED = "prover's proof rejected by the benchmark re-check"  # = benchmarks.prover_attempt.RECHECK_REJECTED


def claimed_not_verified(run: Run) -> set[str]:
    """Problems with an attempt the prover called proved but the benchmark re-check refused
    (and no verified attempt)."""
    solved = run.solved()
    return {p for p, atts in run.attempts.items()
            if p not in solved and any(a.reason.startswith(RECHECK_REJECTED) for a in atts)}


def run_summary(ds: Dataset, run: Run) -> dict:
    outcomes = Counter(a.outcome for atts in run.attempts.values() for a in atts)
    all_atts = [a for atts in run.attempts.values() for a in atts]
    return {
        "label": run.label,
        "suite": run.suite,
        "suite_version": run.suite_version,
        "config_hash": run.config_hash,
        "timeout_s": run.timeout_s,
        "code_version": run.code_version,
        "shuffle_seed": run.shuffle_seed,
        "problems": len(run.attempts),
        "attempts": run.n_attempts,
        "solved": len(run.solved()),
        "outcomes": dict(outcomes),
        "partial": run.partial(),
        "interrupted_attempts": run.running,
        "excluded": len(excluded(ds, run.suite)),
        "pass_at_k": {str(k): round(v, 6) for k, v, _ in pass_table(run)},
        "checker_cpu_s": round(sum(a.checker_cpu_s for a in all_atts), 3),
        "tokens": sum(a.tokens for a in all_atts),
        "wall_s": round(sum(a.wall_s for a in all_atts), 3),
        "solved_problems": sorted(ds.problems.get(p, {}).get("name", p) for p in run.solved()),
        "claimed_not_verified": len(claimed_not_verified(run)),
        **source_time(all_atts),
    }


def source_time(atts: list[Attempt]) -> dict:
    """The tactic sources' own time over the attempts where it is known (``model_s`` not None):
    ``model_s`` (total), ``model_attempts`` (how many attempts it covers), ``model_share`` (sum
    model_s / sum wall_s of those attempts), ``model_tokens_per_s`` (sum tokens / sum model_s),
    ``knn_s`` (total over the attempts where the index's time is known). A figure that cannot
    be computed (nothing known, or a zero divisor) is None, never 0."""
    known = [a for a in atts if a.model_s is not None]
    model = sum(a.model_s or 0.0 for a in known)
    wall = sum(a.wall_s for a in known)
    knn = [a.knn_s for a in atts if a.knn_s is not None]
    return {
        "model_s": round(model, 3) if known else None,
        "model_attempts": len(known),
        "model_share": round(model / wall, 6) if known and wall > 0 else None,
        "model_tokens_per_s": round(sum(a.tokens for a in known) / model, 3) if model > 0 else None,
        "knn_s": round(sum(knn), 3) if knn else None,
    }


def summary(ds: Dataset) -> dict:
    """The ``--json`` object: totals over all runs plus one entry per run."""
    problems = {p for r in ds.runs for p in r.attempts}
    solved = {p for r in ds.runs for p in r.solved()}
    suites = sorted({r.suite for r in ds.runs})
    return {
        "problems": len(problems),
        "attempts": sum(r.n_attempts for r in ds.runs),
        "solved": len(solved),
        "excluded": sum(len(excluded(ds, s)) for s in suites),
        "suites": {s: coverage(ds, s) for s in suites},
        "runs": [run_summary(ds, r) for r in ds.runs],
    }


# --- sweeps ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SweepPoint:
    timeout_s: float
    k: int
    solved: float
    """Mean pass@k over the sweep's common problems."""
    cost: dict
    """Expected cost per problem of pass@k on each axis of ``COST_AXES`` (and ``wall_s``)."""


@dataclass
class Sweep:
    suite: str
    config_hash: str
    runs: list[Run]
    problems: list[str]
    points: list[SweepPoint]
    fits: dict[str, Fit]


def combined_cost(cpu_s: float, tokens: float, token_cpu_s_per_1k: float) -> float:
    """Checker CPU seconds plus tokens at an exchange rate of ``token_cpu_s_per_1k`` CPU-s per 1,000 tokens."""
    return cpu_s + tokens / 1000.0 * token_cpu_s_per_1k


def sweeps(ds: Dataset, token_cpu_s_per_1k: float = 1.0) -> list[Sweep]:
    """Group runs by (suite version, config hash); a group with several budgets or k > 1 is a sweep.

    Points: every (budget, k) with k up to the fewest attempts any common problem has in that
    run. Cost of a point = k x mean per-attempt cost over the common problems.
    """
    groups: dict[tuple[str, str, str], list[Run]] = defaultdict(list)
    for r in ds.runs:
        groups[(r.suite, r.suite_version, r.config_hash)].append(r)
    out = []
    for (suite, _ver, cfg), group in groups.items():
        runs = sorted(group, key=lambda r: r.timeout_s)
        common = sorted(set.intersection(*(set(r.attempts) for r in runs))) if runs else []
        if not common or (len(runs) < 2 and runs[0].max_n() < 2):
            continue
        points = []
        for r in runs:
            n_min = min(len(r.attempts[p]) for p in common)
            atts = [a for p in common for a in r.attempts[p]]
            mean = {
                "checker_cpu_s": sum(a.checker_cpu_s for a in atts) / len(atts),
                "tokens": sum(a.tokens for a in atts) / len(atts),
                "wall_s": sum(a.wall_s for a in atts) / len(atts),
            }
            mean["combined"] = combined_cost(mean["checker_cpu_s"], mean["tokens"], token_cpu_s_per_1k)
            for k in k_grid(n_min):
                solved = mean_pass_at_k(r.counts(common), k)
                points.append(SweepPoint(r.timeout_s, k, solved, {ax: k * v for ax, v in mean.items()}))
        fits = {ax: loglinear_fit([p.cost[ax] for p in points], [p.solved for p in points])
                for ax in (*COST_AXES, "wall_s")}
        out.append(Sweep(suite=suite, config_hash=cfg, runs=runs, problems=common, points=points, fits=fits))
    return out


# --- comparison ----------------------------------------------------------------------------------


def find_run(ds: Dataset, name: str) -> Run:
    """A run by label or run key (``KeyError`` with the choices if none or several match)."""
    hits = [r for r in ds.runs if name in (r.label, r.run_key)]
    if len(hits) != 1:
        choices = ", ".join(repr(r.label) for r in ds.runs)
        raise KeyError(f"{'no' if not hits else 'several'} runs named {name!r}; runs: {choices}")
    return hits[0]


def compare(ds: Dataset, a: Run, b: Run) -> dict:
    """Per-problem side by side over the problems both runs attempted."""
    common = sorted(set(a.attempts) & set(b.attempts), key=lambda p: ds.problems.get(p, {}).get("name", p))
    rows = []
    for pid in common:
        ca = sum(x.outcome == "proved" for x in a.attempts[pid])
        cb = sum(x.outcome == "proved" for x in b.attempts[pid])
        rows.append({
            "problem": ds.problems.get(pid, {}).get("name", pid),
            "a_solved": ca, "a_n": len(a.attempts[pid]),
            "a_cpu_s": sum(x.checker_cpu_s for x in a.attempts[pid]) / len(a.attempts[pid]),
            "b_solved": cb, "b_n": len(b.attempts[pid]),
            "b_cpu_s": sum(x.checker_cpu_s for x in b.attempts[pid]) / len(b.attempts[pid]),
        })
    both = sum(r["a_solved"] > 0 and r["b_solved"] > 0 for r in rows)
    only_a = sum(r["a_solved"] > 0 and r["b_solved"] == 0 for r in rows)
    only_b = sum(r["a_solved"] == 0 and r["b_solved"] > 0 for r in rows)
    return {"a": a.label, "b": b.label, "common": len(rows), "both": both, "only_a": only_a, "only_b": only_b,
            "neither": len(rows) - both - only_a - only_b,
            "a_pass1": mean_pass_at_k(a.counts(common), 1) if rows else 0.0,
            "b_pass1": mean_pass_at_k(b.counts(common), 1) if rows else 0.0, "rows": rows}


