"""Write a report directory from results DBs: ``report.md``, CSV tables, PNG plots, ``summary.json``.

Files: ``report.md``; ``runs.csv`` (one row per run), ``passk.csv`` (run x k), ``problems.csv``
(run x problem: attempts, successes, mean costs), ``attempts.csv``, ``excluded.csv``,
``sweep.csv`` (budget x k points with costs), ``compare.csv`` (when comparing);
``passk.png``, ``scaling_<n>_<axis>.png``.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

from . import analysis as an


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _write_csv(path: Path, header: list[str], rows) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write_report(ds: an.Dataset, out: Path, *, compare_runs: tuple[str, str] | None = None,
                 token_cpu_s_per_1k: float = 1.0, plots: bool = True) -> dict:
    """Write everything into ``out`` (created); returns the summary dict (as ``--json`` prints)."""
    out.mkdir(parents=True, exist_ok=True)
    summ = an.summary(ds)
    header = ["# Benchmark report", "",
              (f"Problems attempted: **{summ['problems']}**, attempts: **{summ['attempts']}**, "
               f"solved (at least one verified proof): **{summ['solved']}**; statements excluded by validation: "
               f"{summ['excluded']}."), ""]
    body = _runs_section(ds, summ, out)
    body += _run_details(ds, summ, out)
    body += _excluded_section(ds, out)
    body += _sweeps_section(ds, summ, out, token_cpu_s_per_1k=token_cpu_s_per_1k, plots=plots)
    body += _compare_section(ds, summ, out, compare_runs)
    if plots and ds.runs and an.pass_table(ds.runs[0]) is not None:
        from .plots import plot_pass_at_k

        if plot_pass_at_k(ds.runs, out / "passk.png"):
            header.append("![pass@k](passk.png)\n")
    (out / "report.md").write_text("\n".join(header + body) + "\n", encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(summ, indent=1) + "\n", encoding="utf-8")
    return summ


def _runs_section(ds: an.Dataset, summ: dict, out: Path) -> list[str]:
    """The table of runs and their commands; writes ``runs.csv`` and ``passk.csv``."""
    md = ["## Runs", "", ("| run | suite (version) | config @ code version | budget/attempt | problems | attempts | solved | "
                          "claimed, not verified | outcomes | pass@1 | pass@k (largest k) | checker CPU s | tokens |"),
          "|" + "---|" * 13]
    run_rows, passk_rows = [], []
    for r, s in zip(ds.runs, summ["runs"], strict=True):
        pk = an.pass_table(r)
        last = f"pass@{pk[-1][0]} = {_pct(pk[-1][1])}" if pk else "-"
        first = _pct(pk[0][1]) if pk else "-"
        oc = ", ".join(f"{k} {v}" for k, v in sorted(s["outcomes"].items()))
        flag = " (partial)" if s["partial"] or s["interrupted_attempts"] else ""
        code = f" @ {r.code_version}" if r.code_version else ""
        md.append(f"| {r.label}{flag} | {r.suite} ({r.suite_version}) | {r.config_hash}{code} | {r.timeout_s:g}s | "
                  f"{s['problems']} | {s['attempts']} | {s['solved']} | {s['claimed_not_verified']} | {oc} | {first} | {last} | "
                  f"{s['checker_cpu_s']:.1f} | {s['tokens']} |")
        run_rows.append([r.label, r.suite, r.suite_version, r.config_hash, r.timeout_s, s["problems"], s["attempts"],
                         s["solved"], json.dumps(s["outcomes"]), s["checker_cpu_s"], s["tokens"], s["wall_s"],
                         s["partial"], s["interrupted_attempts"], r.command, r.code_version, r.shuffle_seed])
        passk_rows += [[r.label, r.suite, k, round(v, 6), n] for k, v, n in pk]
    md.append("")
    _write_csv(out / "runs.csv", ["label", "suite", "suite_version", "config_hash", "timeout_s", "problems", "attempts",
                                  "solved", "outcomes", "checker_cpu_s", "tokens", "wall_s", "partial",
                                  "interrupted_attempts", "command", "code_version", "shuffle_seed"], run_rows)
    _write_csv(out / "passk.csv", ["label", "suite", "k", "pass_at_k", "problems_with_k_attempts"], passk_rows)
    md += [f"- `{r.label}`: `{r.command}`" for r in ds.runs if r.command]
    md.append("")
    return md


def _run_details(ds: an.Dataset, summ: dict, out: Path) -> list[str]:
    """One section per run (pass@k, per tag and difficulty, failure reasons, solved list); writes
    ``problems.csv`` and ``attempts.csv``."""
    md: list[str] = []
    prob_rows, att_rows = [], []
    for r, s in zip(ds.runs, summ["runs"], strict=True):
        md += _run_detail(ds, r, s)
        for pid, atts in sorted(r.attempts.items()):
            name = ds.problems.get(pid, {}).get("name", pid)
            c = sum(a.outcome == "proved" for a in atts)
            prob_rows.append([r.label, r.suite, name, len(atts), c,
                              round(sum(a.checker_cpu_s for a in atts) / len(atts), 3),
                              round(sum(a.tokens for a in atts) / len(atts), 1),
                              round(sum(a.wall_s for a in atts) / len(atts), 3)])
            att_rows += [[r.label, r.suite, name, a.seed, a.outcome, a.tokens, round(a.checker_cpu_s, 3),
                          round(a.wall_s, 3), a.reason[:300], _opt(a.model_s), _opt(a.knn_s)] for a in atts]
    _write_csv(out / "problems.csv", ["label", "suite", "problem", "attempts", "proved", "mean_checker_cpu_s",
                                      "mean_tokens", "mean_wall_s"], prob_rows)
    _write_csv(out / "attempts.csv", ["label", "suite", "problem", "seed", "outcome", "tokens", "checker_cpu_s",
                                      "wall_s", "reason", "model_s", "knn_s"], att_rows)
    return md


def _run_detail(ds: an.Dataset, r: an.Run, s: dict) -> list[str]:
    md = [f"## {r.label} — {r.suite}", ""]
    pk = an.pass_table(r)
    if pk:
        md += ["| k | pass@k | problems with ≥ k attempts |", "|---|---|---|"]
        md += [f"| {k} | {_pct(v)} | {n} |" for k, v, n in pk]
        md.append("")
    md += _source_time_lines(s)
    for key, title in (("tags", "tag"), ("difficulty", "difficulty")):
        md += _group_table(ds, r, key, title)
    reasons = an.failure_reasons(r)
    if reasons:
        md += ["Most common reasons of unsuccessful attempts:", "", "| count | outcome: reason |", "|---|---|"]
        md += [f"| {n} | {reason.replace('|', '/')} |" for reason, n in reasons]
        md.append("")
    names = s["solved_problems"]
    md += [f"Solved ({len(names)}): " + (", ".join(f"`{n}`" for n in names) if names else "none"), ""]
    if s["claimed_not_verified"]:
        claimed = sorted(ds.problems.get(p, {}).get("name", p) for p in an.claimed_not_verified(r))
        md += [f"Claimed by the prover but refused by the independent re-check, so **not** counted as solved "
               f"({len(claimed)}): " + ", ".join(f"`{n}`" for n in claimed), ""]
    return md


def _opt(x: float | None) -> str | float:
    """A CSV cell of a figure that may be unknown: empty for None (never 0)."""
    return "" if x is None else round(x, 3)


def _source_time_lines(s: dict) -> list[str]:
    """The tactic model's share of a run's time (``analysis.source_time``), when any attempt with
    a recorded model time used the model; a figure that cannot be computed reads "n/a"."""
    if not s.get("model_s"):
        return []
    unknown = s["attempts"] - s["model_attempts"]
    share = _pct(s["model_share"]) if s["model_share"] is not None else "n/a"
    rate = f"{s['model_tokens_per_s']:.1f}" if s["model_tokens_per_s"] is not None else "n/a"
    knn = f"{s['knn_s']:.1f} s" if s["knn_s"] is not None else "n/a"
    return [f"Tactic model: {s['model_s']:.1f} s in {s['model_attempts']} attempts"
            + (f" ({unknown} more with no recorded model time: n/a)" if unknown else "")
            + f", {share} of those attempts' wall time, {rate} tokens per second of model time; "
            f"k-NN index: {knn}.", ""]


def _group_table(ds: an.Dataset, r: an.Run, key: str, title: str) -> list[str]:
    """Problems, solved and pass@1 (and pass@k at the run's smallest attempt count) per group of
    the problems' ``key`` field; empty when no problem has one."""
    groups = an.by_group(ds, r, key)
    if not groups:
        return []
    kmax = min(len(v) for v in r.attempts.values())
    extra = f" pass@{kmax} |" if kmax > 1 else ""
    md = [f"Per {title}:", "", f"| {title} | problems | solved | pass@1 |{extra}",
          "|---|---|---|---|" + ("---|" if kmax > 1 else "")]
    for g, pids in groups.items():
        solved = sum(1 for p in pids if p in r.solved())
        p1 = an.mean_pass_at_k(r.counts(pids), 1)
        cell = f" {_pct(an.mean_pass_at_k(r.counts(pids), kmax))} |" if kmax > 1 else ""
        md.append(f"| {g} | {len(pids)} | {solved} | {_pct(p1)} |{cell}")
    md.append("")
    return md


def _excluded_section(ds: an.Dataset, out: Path) -> list[str]:
    """What validation left out of each suite the runs cover; writes ``excluded.csv``."""
    exc_rows = []
    md = ["## Excluded statements (validation)", ""]
    for suite in sorted({r.suite for r in ds.runs}):
        exc = an.excluded(ds, suite)
        exc_rows += [[suite, *e] for e in exc]
        cov = an.coverage(ds, suite)
        md.append(f"- **{suite}**: {cov['statements']} statements known; {cov['ok']} compile here, {len(exc)} excluded"
                  + (f", {cov['not_examined']} not examined (beyond --limit)" if cov["not_examined"] else "")
                  + (" — excluded ones are not run and not counted as failures:" if exc else "."))
        for name, status, reason in exc[:60]:
            md.append(f"  - `{name}` ({status}): {reason[:160]}")
        if len(exc) > 60:
            md.append(f"  - ... {len(exc) - 60} more in excluded.csv")
    md.append("")
    _write_csv(out / "excluded.csv", ["suite", "problem", "status", "reason"], exc_rows)
    return md


def _sweeps_section(ds: an.Dataset, summ: dict, out: Path, *, token_cpu_s_per_1k: float, plots: bool) -> list[str]:
    """Pass@k per budget and the cost fits of each sweep; writes ``sweep.csv`` (and the scaling
    plots) and adds ``sweeps`` to ``summ`` when there is one."""
    md: list[str] = []
    sweep_rows = []
    sw = an.sweeps(ds, token_cpu_s_per_1k)
    if sw:
        md += ["## Scaling sweeps", "",
               (f"Cost of a point = k × mean per-attempt cost on the sweep's common problems. Combined cost = checker "
                f"CPU s + tokens/1000 × {token_cpu_s_per_1k:g} CPU-s. Fit: solved = a + b·ln(cost)."), ""]
    for i, s in enumerate(sw):
        md += _sweep_detail(i, s, out, plots=plots)
        sweep_rows += [[i, s.suite, s.config_hash, p.timeout_s, p.k, round(p.solved, 6),
                        *(round(p.cost[ax], 4) for ax in (*an.COST_AXES, "wall_s"))] for p in s.points]
        summ.setdefault("sweeps", []).append({
            "suite": s.suite, "config_hash": s.config_hash, "problems": len(s.problems),
            "points": [{"timeout_s": p.timeout_s, "k": p.k, "solved": round(p.solved, 6), **p.cost} for p in s.points],
            "fits": {ax: {"a": f.a, "b": f.b, "r2": None if math.isnan(f.r2) else f.r2, "points": f.points}
                     for ax, f in s.fits.items()}})
    _write_csv(out / "sweep.csv", ["sweep", "suite", "config_hash", "timeout_s", "k", "solved", *an.COST_AXES, "wall_s"],
               sweep_rows)
    return md


def _sweep_detail(i: int, s: an.Sweep, out: Path, *, plots: bool) -> list[str]:
    ks = sorted({p.k for p in s.points})
    budgets = sorted({p.timeout_s for p in s.points})
    md = [f"### Sweep {i}: {s.suite}, config {s.config_hash}, {len(s.problems)} common problems", "",
          "| budget/attempt | " + " | ".join(f"pass@{k}" for k in ks) + " |", "|---|" + "---|" * len(ks)]
    for b in budgets:
        cells = {p.k: p for p in s.points if p.timeout_s == b}
        md.append(f"| {b:g}s | " + " | ".join(_pct(cells[k].solved) if k in cells else "-" for k in ks) + " |")
    md.append("")
    for ax in (*an.COST_AXES, "wall_s"):
        if all(p.cost[ax] == 0 for p in s.points):
            md.append(f"- {ax}: all zero (nothing recorded on this axis), no fit.")
            continue
        md.append(f"- {ax}: {s.fits[ax].describe(ax)}")
        if plots:
            png = out / f"scaling_{i}_{ax}.png"
            from .plots import plot_scaling

            if plot_scaling(s, ax, png):
                md.append(f"\n  ![{ax}]({png.name})\n")
    md.append("")
    return md


def _compare_section(ds: an.Dataset, summ: dict, out: Path, compare_runs: tuple[str, str] | None) -> list[str]:
    """Two runs side by side: the pair asked for, else the only two runs when they share a suite;
    writes ``compare.csv`` and adds ``compare`` to ``summ``. Empty when there is no pair."""
    pair = None
    if compare_runs:
        pair = (an.find_run(ds, compare_runs[0]), an.find_run(ds, compare_runs[1]))
    elif len(ds.runs) == 2 and ds.runs[0].suite == ds.runs[1].suite:
        pair = (ds.runs[0], ds.runs[1])
    if not pair:
        return []
    cmp = an.compare(ds, *pair)
    md = [f"## Side by side: A = {cmp['a']}, B = {cmp['b']}", "",
          (f"{cmp['common']} common problems; solved by both {cmp['both']}, only A {cmp['only_a']}, only B "
           f"{cmp['only_b']}, neither {cmp['neither']}; pass@1 A {_pct(cmp['a_pass1'])}, B {_pct(cmp['b_pass1'])}."),
          "", "| problem | A solved/n | A CPU s | B solved/n | B CPU s |", "|---|---|---|---|---|"]
    for row in cmp["rows"]:
        if row["a_solved"] or row["b_solved"]:
            md.append(f"| {row['problem']} | {row['a_solved']}/{row['a_n']} | {row['a_cpu_s']:.2f} | "
                      f"{row['b_solved']}/{row['b_n']} | {row['b_cpu_s']:.2f} |")
    md += ["", "(rows where neither run solved the problem are in compare.csv)", ""]
    _write_csv(out / "compare.csv", list(cmp["rows"][0]) if cmp["rows"] else ["problem"],
               [list(r.values()) for r in cmp["rows"]])
    summ["compare"] = {k: v for k, v in cmp.items() if k != "rows"}
    return md
