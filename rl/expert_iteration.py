"""Expert iteration of the tactic model: search with it, train on the proofs it finds, measure.

    python -m rl.expert_iteration --rounds N --start-model DIR [--out runs/expert-iteration]
        [--timeout 20] [--workers 2] [--check-timeout 300] [--limit N] [--iter-preset lm|learned]
        [--sft-config rl/configs/tactic_sft_cpu.toml] [--sft-override KEY=VALUE ...]

Round ``r`` (round 1's model is ``--start-model``, a ``prover-train`` SFT output folder holding
``tactic-model.json``):

a. ``prover-bench run reprove-dev-iter --preset lm`` (``--iter-preset``: ``learned`` adds the
   k-NN suggestions to the model-guided search) with ``PROVER_TACTIC_MODEL`` set to round ``r``'s
   model (``roundR/iter.db``); lemmas of the training files (``benchmarks.reprove_samples``);
b. ``prover-data from-proofs`` on that database -> ``roundR/search_steps.jsonl``;
c. ``prover-train SFT_CONFIG sft.init_adapter=<round r's adapter> sft.extra_examples=[every
   round's search_steps.jsonl so far] sft.skip_examples=<fresh> output.dir=round(R+1)/model`` plus
   ``--sft-override``s. ``<fresh>`` (``fresh_offset``) skips the human steps every earlier model
   was drawn, so each retrain sees human steps no earlier round trained on (with the same train
   file, seed and token bound; otherwise 0, said in the log). An explicit ``sft.skip_examples``
   override wins;
d. ``prover-bench run reprove-dev-heldout --preset lm`` with round ``r + 1``'s model
   (``roundR/heldout.db``): lemmas of held-out files, never trained on.
Before round 1, the start model is run on ``reprove-dev-heldout`` too (``round0/heldout.db``),
the point the rounds are compared with.

Resumable: each stage writes ``roundR/stages/STAGE.json`` (argv, seconds, counts) once its command
succeeded and its output is in place; a stage whose record exists is skipped, and an interrupted
``prover-bench run`` resumes inside its database. ``rounds.jsonl`` gets one line per finished
round: the model searched with, proved on ``reprove-dev-iter``, the steps it gave, the model
trained, proved on ``reprove-dev-heldout``, and the seconds of each stage. Each command's output
goes to ``roundR/logs/STAGE.log``. Commands run as ``python -m`` of this interpreter, so the
project's environment is the one used.

The retrain's config and overrides are checked before anything runs; a bad config, a bad line of
``rounds.jsonl`` or other bad input is one line on stderr, exit 2.

Not covered: several search attempts per lemma (``--k``), running stages of different rounds at
once, choosing which steps to keep beyond the deduplication ``from-proofs`` does.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from prover.search.lm_card import CARD_FILE, read_card

ITER_SUITE = "reprove-dev-iter"
HELDOUT_SUITE = "reprove-dev-heldout"
MODEL_ENV = "PROVER_TACTIC_MODEL"
DEFAULT_SFT_CONFIG = "rl/configs/tactic_sft_cpu.toml"
DEFAULT_SFT_OVERRIDES = ("sft.examples=300", "sft.eval_every=0", "sft.eval_examples=50")
"""A short retrain: 300 human steps besides every search step, evaluated before and after only."""


class IterationError(RuntimeError):
    """A stage's command failed, or its output is missing (the message names the log)."""


@dataclass(frozen=True)
class Settings:
    """What every round uses; stored in ``settings.json`` and checked again on resume."""

    out: Path
    start_model: Path
    timeout: float = 20.0
    check_timeout: float = 300.0
    workers: int = 2
    limit: int | None = None
    sft_config: str = DEFAULT_SFT_CONFIG
    sft_overrides: tuple[str, ...] = DEFAULT_SFT_OVERRIDES
    iter_preset: str = "lm"
    """The benchmark preset searching ``reprove-dev-iter`` (the held-out sample is always ``lm``)."""

    def as_json(self) -> dict:
        return {"start_model": str(self.start_model), "timeout": self.timeout, "check_timeout": self.check_timeout,
                "workers": self.workers, "limit": self.limit, "sft_config": self.sft_config,
                "sft_overrides": list(self.sft_overrides), "iter_preset": self.iter_preset}


@dataclass(frozen=True)
class Command:
    """One stage's command: its argv, the tactic model it points the search at (if any), its log."""

    argv: tuple[str, ...]
    log: Path
    model: Path | None = None
    note: str | None = None
    """A line written to the log (as a ``#`` comment) before the command, when it runs."""


def round_dir(s: Settings, r: int) -> Path:
    return s.out / f"round{r}"


def model_of(s: Settings, r: int) -> Path:
    """Round ``r``'s model: the start model for round 1, else what round ``r - 1`` trained."""
    return s.start_model if r == 1 else round_dir(s, r) / "model"


def adapter_of(model: Path) -> Path | None:
    """The LoRA adapter a model card names (``adapter``, relative to the card's folder), if any."""
    return read_card(model).adapter_path(model)


def _toml(value: object) -> str:
    """A TOML literal for an override value (JSON strings and arrays of strings are TOML)."""
    return json.dumps(value)


def bench_command(s: Settings, suite: str, db: Path, model: Path, label: str, log: Path, preset: str = "lm") -> Command:
    argv = [sys.executable, "-m", "benchmarks", "run", suite, "--preset", preset, "--db", str(db),
            "--timeout", f"{s.timeout:g}", "--check-timeout", f"{s.check_timeout:g}", "--workers", str(s.workers),
            "--label", label]
    if s.limit is not None:
        argv += ["--limit", str(s.limit)]
    return Command(argv=tuple(argv), log=log, model=model)


def steps_command(db: Path, out: Path, log: Path) -> Command:
    return Command(argv=(sys.executable, "-m", "rl.stepdata.cli", "from-proofs", "--db", str(db),
                         "--suite", ITER_SUITE, "--out", str(out)), log=log)


def fresh_offset(model: Path, sft) -> tuple[int, str]:
    """How many human steps of the seeded draw ``model`` was trained from (what its own run
    skipped plus what it drew), and why, for a retrain with the SFT section ``sft``. 0 when the
    model's card records no training run, or one with another base model, train file (path or
    content), seed or token bound: then the two draws are unrelated and no offset means anything."""
    from .tactic_sft import file_sha256

    trained = read_card(model).trained
    before = ((trained.get("config") or {}).get("sft")) or {}
    if not before:
        return 0, f"{model} records no training run: no human steps skipped"
    differs = [k for k in ("base", "train_file", "seed", "max_tokens") if k in before and before[k] != getattr(sft, k)]
    recorded = trained.get("train_file_sha256")
    if recorded is not None and recorded != file_sha256(Path(sft.train_file).expanduser()):
        differs.append("train file content")
    if differs:
        return 0, f"{model} was drawn with another {', '.join(differs)}: no human steps skipped"
    drawn = trained.get("drawn_examples")
    if drawn is None:  # a card without drawn_examples: its selection less its extra steps
        drawn = int(trained.get("selected_examples", 0)) - int(trained.get("extra_examples") or 0)
    offset = int(before.get("skip_examples", 0)) + int(drawn)
    if offset == 0:
        return 0, f"{model} records no human steps drawn: none skipped"
    return offset, f"{model} was drawn the first {offset} human steps of the seeded order: skipped"


def train_command(s: Settings, r: int, log: Path) -> Command:
    """Round ``r``'s retrain: continue from round ``r``'s adapter on every search step so far and
    on human steps no earlier round was drawn (``fresh_offset``)."""
    from .tactic_sft_config import load_sft_config

    extra = [str(round_dir(s, k) / "search_steps.jsonl") for k in range(1, r + 1)]
    argv = [sys.executable, "-m", "rl.cli", s.sft_config]
    adapter = adapter_of(model_of(s, r))
    if adapter is not None:
        argv.append(f"sft.init_adapter={_toml(str(adapter))}")
    argv += [f"sft.extra_examples={_toml(extra)}", f"output.dir={_toml(str(model_of(s, r + 1)))}"]
    why = None
    if not any(o.split("=", 1)[0].strip() == "sft.skip_examples" for o in s.sft_overrides):
        offset, why = fresh_offset(model_of(s, r), load_sft_config(s.sft_config, list(s.sft_overrides)).sft)
        argv.append(f"sft.skip_examples={offset}")
    return Command(argv=(*argv, *s.sft_overrides), log=log, note=why)


def run_command(cmd: Command) -> float:
    """Run ``cmd`` with its output in its log; returns its wall seconds. ``IterationError`` on a
    non-zero exit."""
    env = dict(os.environ)
    if cmd.model is not None:
        env[MODEL_ENV] = str(cmd.model)
    cmd.log.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with cmd.log.open("a", encoding="utf-8") as log:
        if cmd.note:
            log.write(f"# {cmd.note}\n")
        log.write(f"$ {' '.join(cmd.argv)}\n")
        log.flush()
        done = subprocess.run(list(cmd.argv), env=env, stdout=log, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        raise IterationError(f"`{' '.join(cmd.argv[1:4])} ...` exited {done.returncode}; see {cmd.log}")
    return round(time.monotonic() - t0, 1)


def db_counts(db: Path) -> dict[str, int]:
    """Problems attempted and proved in a results database of one run."""
    from benchmarks.db import ResultsDB

    if not db.is_file():
        raise IterationError(f"{db} was not written")
    with ResultsDB(db, readonly=True) as rdb:
        attempted = rdb.conn.execute("SELECT COUNT(DISTINCT problem_id) FROM attempts WHERE status='done'").fetchone()[0]
        proved = rdb.conn.execute("SELECT COUNT(DISTINCT problem_id) FROM attempts WHERE outcome='proved'").fetchone()[0]
    return {"problems": int(attempted), "proved": int(proved)}


def step_counts(s: Settings, r: int) -> dict[str, int]:
    """Steps of round ``r``'s file, and how many of them no earlier round gave (by dedup key)."""
    from .stepdata.schema import read_jsonl

    path = round_dir(s, r) / "search_steps.jsonl"
    if not path.is_file():
        raise IterationError(f"{path} was not written")
    seen = {st.dedup_key() for k in range(1, r) for st in read_jsonl(round_dir(s, k) / "search_steps.jsonl")}
    keys = [st.dedup_key() for st in read_jsonl(path)]
    return {"steps": len(keys), "new_steps": sum(k not in seen for k in keys)}


def stage(s: Settings, r: int, name: str, cmd: Command, counts: Callable[[], dict]) -> dict:
    """Run one stage unless its record exists; return the record (argv, seconds, counts)."""
    record_path = round_dir(s, r) / "stages" / f"{name}.json"
    if record_path.is_file():
        return json.loads(record_path.read_text(encoding="utf-8"))
    seconds = run_command(cmd)
    record = {"argv": list(cmd.argv), "model": str(cmd.model) if cmd.model else None, "seconds": seconds, **counts()}
    record_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = record_path.with_suffix(".part")
    tmp.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, record_path)
    return record


def baseline(s: Settings) -> dict:
    """The start model on the held-out sample (``round0``)."""
    d = round_dir(s, 0)
    cmd = bench_command(s, HELDOUT_SUITE, d / "heldout.db", s.start_model, "lm-round1-heldout", d / "logs" / "heldout.log")
    rec = stage(s, 0, "heldout", cmd, lambda: db_counts(d / "heldout.db"))
    return {"round": 0, "model": str(s.start_model), "heldout_proved": rec["proved"], "heldout_problems": rec["problems"],
            "seconds": {"heldout": rec["seconds"]}}


def one_round(s: Settings, r: int) -> dict:
    """Stages a-d of round ``r`` (module docstring); returns its ``rounds.jsonl`` line."""
    d, model, trained = round_dir(s, r), model_of(s, r), model_of(s, r + 1)
    logs = d / "logs"
    search = bench_command(s, ITER_SUITE, d / "iter.db", model, f"{s.iter_preset}-round{r}", logs / "iter.log", s.iter_preset)
    a = stage(s, r, "iter", search, lambda: db_counts(d / "iter.db"))
    b = stage(s, r, "steps", steps_command(d / "iter.db", d / "search_steps.jsonl", logs / "steps.log"),
              lambda: step_counts(s, r))
    c = stage(s, r, "train", train_command(s, r, logs / "train.log"), lambda: _card_present(trained))
    e = stage(s, r, "heldout", bench_command(s, HELDOUT_SUITE, d / "heldout.db", trained, f"lm-round{r + 1}-heldout",
                                             logs / "heldout.log"), lambda: db_counts(d / "heldout.db"))
    return {"round": r, "model": str(model), "iter_proved": a["proved"], "iter_problems": a["problems"],
            "search_steps": b["steps"], "new_steps": b["new_steps"], "trained_model": str(trained),
            "heldout_proved": e["proved"], "heldout_problems": e["problems"],
            "seconds": {"iter": a["seconds"], "steps": b["seconds"], "train": c["seconds"], "heldout": e["seconds"]}}


def _card_present(model: Path) -> dict:
    if not (model / CARD_FILE).is_file():
        raise IterationError(f"training finished without writing {model / CARD_FILE}")
    return {}


def _check_settings(s: Settings) -> None:
    """Write ``settings.json`` on the first run; refuse to resume a folder made with other settings."""
    path = s.out / "settings.json"
    if path.is_file():
        old = json.loads(path.read_text(encoding="utf-8"))
        old.setdefault("iter_preset", "lm")  # settings.json without it: the iteration search was `lm`
        if old != s.as_json():
            diff = sorted(k for k in set(old) | set(s.as_json()) if old.get(k) != s.as_json().get(k))
            raise ValueError(f"{s.out} was started with other settings ({', '.join(diff)}); use another --out")
        return
    s.out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(s.as_json(), indent=1) + "\n", encoding="utf-8")


def read_rounds(path: Path) -> list[dict]:
    """The lines of ``rounds.jsonl`` (none when it does not exist). A line that is not a JSON object
    with an integer ``"round"`` raises ``ValueError`` naming the file and line."""
    if not path.is_file():
        return []
    lines: list[dict] = []
    for lineno, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}:{lineno}: not JSON: {e}") from None
        if not isinstance(line, dict) or not isinstance(line.get("round"), int):
            raise ValueError(f"{path}:{lineno}: not a round's line (no integer \"round\")")
        lines.append(line)
    return lines


def check_sft_config(s: Settings) -> None:
    """The retrain's config with ``--sft-override``s loads as an SFT job (``ConfigError``, a
    ``ValueError``, otherwise): checked before round 0, not after the first searches."""
    from .tactic_sft_config import load_sft_config

    load_sft_config(s.sft_config, list(s.sft_overrides))


def run(s: Settings, rounds: int) -> list[dict]:
    """The baseline, then rounds 1..``rounds``; each finished round's line is appended to
    ``rounds.jsonl`` once. Returns every line of the file."""
    if not (s.start_model / CARD_FILE).is_file():
        raise ValueError(f"--start-model {s.start_model} has no {CARD_FILE} (a `prover-train` SFT output folder)")
    check_sft_config(s)
    _check_settings(s)
    log = s.out / "rounds.jsonl"
    done = read_rounds(log)
    have = {x["round"] for x in done}
    for r in range(rounds + 1):
        if r in have:
            continue
        line = baseline(s) if r == 0 else one_round(s, r)
        with log.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
        done.append(line)
    return done


def round_points(s: Settings, lines: list[dict]) -> list[dict]:
    """One point per model measured on the held-out sample: round 0's line is the start model
    (round 1's), round r's line the model it trained (round r + 1's). Each has the lemmas proved
    and, where the model's card records its training run, the trainer's held-out evaluation."""
    points = []
    for line in sorted(lines, key=lambda x: x["round"]):
        model = s.start_model if line["round"] == 0 else Path(line.get("trained_model") or "")
        trained = read_card(model).trained if (model / CARD_FILE).is_file() else {}
        points.append({"model_round": line["round"] + 1, "proved": line["heldout_proved"],
                       "problems": line["heldout_problems"], "eval": trained.get("final_eval")})
    return points


def plot_rounds(s: Settings, lines: list[dict]) -> Path:
    """``rounds.png`` in the run folder: per round's model, the held-out lemmas it proves with the
    search and the trainer's held-out loss and top-1 / top-5 tactic accuracy."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = round_points(s, lines)
    xs = [pt["model_round"] for pt in points]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
    ax1.plot(xs, [pt["proved"] for pt in points], "k-o", label=f"{HELDOUT_SUITE} proved (lm preset)")
    total = points[0]["problems"] if points else 0
    ax1.set_ylabel(f"lemmas proved (of {total})")
    ax1.set_ylim(0, max(total, 1))
    scored = [pt for pt in points if pt["eval"]]
    ax2.plot([pt["model_round"] for pt in scored], [pt["eval"]["top1"] for pt in scored], "-o", label="top-1 exact")
    ax2.plot([pt["model_round"] for pt in scored], [pt["eval"]["top5"] for pt in scored], "-s", label="top-5 exact")
    ax2.plot([pt["model_round"] for pt in scored], [pt["eval"]["loss"] / 10 for pt in scored], "--^", label="loss / 10")
    ax2.set_ylabel("held-out tactic steps")
    for ax in (ax1, ax2):
        ax.set_xlabel("model of round")
        ax.set_xticks(xs)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"Expert iteration: {s.out.name}")
    fig.tight_layout()
    path = s.out / "rounds.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rl.expert_iteration", description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, required=True, help="rounds to have finished (earlier ones are skipped)")
    ap.add_argument("--start-model", type=Path, required=True, help="round 1's model (folder with tactic-model.json)")
    ap.add_argument("--out", type=Path, default=Path("runs/expert-iteration"))
    ap.add_argument("--timeout", type=float, default=20.0, help="search budget per problem, seconds (default 20)")
    ap.add_argument("--check-timeout", type=float, default=300.0, help="seconds per statement check")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=int, default=None, help="first N problems of each sample (a smoke run)")
    ap.add_argument("--iter-preset", choices=["lm", "learned"], default="lm",
                    help="the search on the iteration sample: the model alone (lm) or with k-NN suggestions (learned)")
    ap.add_argument("--sft-config", default=DEFAULT_SFT_CONFIG)
    ap.add_argument("--sft-override", action="append", default=None, metavar="KEY=VALUE",
                    help=f"retrain override, repeatable (default: {' '.join(DEFAULT_SFT_OVERRIDES)})")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.workers < 1 or args.timeout <= 0 or (args.limit is not None and args.limit < 1):
        print("expert_iteration: --rounds, --workers and --limit must be at least 1, --timeout positive", file=sys.stderr)
        return 2
    s = Settings(out=args.out, start_model=args.start_model.resolve(), timeout=args.timeout,
                 check_timeout=args.check_timeout, workers=args.workers, limit=args.limit, sft_config=args.sft_config,
                 sft_overrides=tuple(args.sft_override) if args.sft_override is not None else DEFAULT_SFT_OVERRIDES,
                 iter_preset=args.iter_preset)
    try:
        lines = run(s, args.rounds)
    except (ValueError, OSError) as e:
        print(f"expert_iteration: {e}", file=sys.stderr)
        return 2
    except IterationError as e:
        print(f"expert_iteration: {e}", file=sys.stderr)
        return 1
    for line in lines:
        print(json.dumps(line))
    try:
        print(f"plot: {plot_rounds(s, lines)}", file=sys.stderr)
    except ImportError:  # matplotlib is an optional extra: the numbers are in rounds.jsonl
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
