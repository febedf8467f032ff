"""The training job: curriculum -> rollout workers -> verifier -> algorithm hooks -> trainer.

Modes (``async.mode``; ``async.sync_steps`` runs that many synchronous steps first so both
are measured in one run):
- sync: draw ``batch_groups`` problems, generate and check their groups on ``rollout_workers``
  threads, train, push weights. Nothing overlaps with training. Each group's sampling is
  seeded by its draw index, so a sync run is reproducible and resumes exactly.
- async: ``rollout_workers`` threads loop forever (draw, generate on the newest snapshot,
  check) into a bounded queue while the trainer consumes it. A group whose policy version is
  more than ``max_staleness`` behind the trainer is dropped and counted; the queue bound
  (``batch_groups * (max_staleness + 1)``) keeps workers from running further ahead.

Dynamic sampling (``algorithm.keep_group``) drops groups with all-equal rewards; sync mode
refills with extra rounds (at most ``max_refill_rounds``), async mode just reads more from
the queue. Every episode, kept or not, goes to ``rollouts.jsonl``.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import RLConfig
from .records import Episode, Problem, StepMetrics

if TYPE_CHECKING:
    from .agent_env import AgentEnvironment
    from .tactic_env import Environment


class Job:
    """Everything a run needs, built from the config. ``verifier`` may be any object with
    ``verdict(problem, script) -> Verdict`` (tests pass plain callables wrapped this way)."""

    def __init__(self, cfg: RLConfig, output_dir: str | Path, *, verifier=None):
        import torch

        from . import curriculum
        from .algorithms import build_algorithm
        from .distributed import init_world, remote_verdict
        from .policy import build_model
        from .problem_sampler import ProblemSampler
        from .tactic_env import Environment
        from .verifier import Verifier

        self.cfg = cfg
        self.out = Path(output_dir)
        tc, sc, cc = cfg.trainer, cfg.sampler, cfg.curriculum
        if tc.torch_threads:
            torch.set_num_threads(tc.torch_threads)
        self.world = init_world(tc.device)
        """Ranks under torchrun (``rl.distributed``); each rank rolls out its share of the groups."""
        if tc.batch_groups % self.world.size:
            raise ValueError(f"trainer.batch_groups = {tc.batch_groups} does not split over {self.world.size} ranks")
        self.local_groups = tc.batch_groups // self.world.size
        device = self.world.device
        self.device = device
        torch.manual_seed(tc.seed)
        self.train_set, self.heldout = curriculum.generate(cc.families, cc.max_difficulty, cc.train_size,
                                                           cc.heldout_size, cc.seed)
        if cc.minif2f_valid:
            extra_train, extra_held = curriculum.minif2f_problems("valid")
            self.train_set, self.heldout = self.train_set + extra_train, self.heldout + extra_held
        self.problems = ProblemSampler(self.train_set, seed=tc.seed + 7919 * self.world.rank,
                                       filtering=cc.difficulty_filter, window=cc.filter_window,
                                       filter_weight=cc.filter_weight)
        self.algorithm = build_algorithm(cfg.algorithm, sc.max_new_tokens)
        keep_ref = cfg.algorithm.kl_coef > 0 and cfg.checkpoint.keep_reference
        if cfg.model.type == "lm":
            from .lm_job import build_lm_parts

            self.trainer, self.sampler = build_lm_parts(cfg, self.algorithm, self.out, self.world, keep_ref)
        else:
            self.trainer, self.sampler = self._tactic_parts(cfg, build_model(cfg.model, sc.max_new_tokens), keep_ref)
        if verifier is None:
            remote = remote_verdict(cfg.async_.ray_address) if cfg.async_.ray_address else None
            verifier = Verifier(mode=cfg.env.verifier, prescreen=cfg.env.prescreen, cache=cfg.env.cache_verdicts,
                                timeout=cfg.env.check_timeout, remote_check=remote)
        self.verifier = verifier
        self.env: Environment | AgentEnvironment
        if cfg.env.loop == "agent" or cfg.model.type == "lm":
            from .agent_env import AgentEnvironment

            chat_model = None
            if cfg.model.type == "lm":
                from .lm_agent import lm_chat_factory

                chat_model = lm_chat_factory(self.sampler, cfg)
            # Up to 4 warm sessions per rollout thread: one per curriculum header, so they rarely evict each other.
            self.env = AgentEnvironment(verifier, self.sampler, cfg.env, streaming=cfg.async_.streaming,
                                        max_sessions=min(16, 4 * cfg.async_.rollout_workers), chat_model=chat_model)
        else:
            self.env = Environment(verifier, self.sampler, cfg.env, streaming=cfg.async_.streaming)
        self.version = 0
        self.step = 0
        self.pool = ThreadPoolExecutor(cfg.async_.rollout_workers, thread_name_prefix="sync-rollout")
        """Persistent threads, so each keeps its warm proof-assistant sessions across steps."""
        self.sampler.push(self.trainer.state_dict_for_sampler(), self.version)

    def _tactic_parts(self, cfg: RLConfig, model, keep_ref: bool):
        """Trainer and sampler of the tactic-token policies (``rl.policy``)."""
        from .action_samplers import TorchSampler, TransformersSampler, VLLMSampler
        from .trainer import Trainer

        tc, sc = cfg.trainer, cfg.sampler
        trainer = Trainer(model, self.algorithm, tc, max_prompt_chars=cfg.model.max_prompt_chars,
                          temperature=sc.temperature, device=self.device, keep_reference=keep_ref,
                          end_bias=cfg.model.end_bias, world=self.world)
        kw: dict[str, Any] = {"max_prompt_chars": cfg.model.max_prompt_chars, "max_new_tokens": sc.max_new_tokens,
              "temperature": sc.temperature, "keep": cfg.async_.max_staleness + 2, "seed": tc.seed,
              "device": self.device, "end_bias": cfg.model.end_bias}
        if sc.type == "torch":
            return trainer, TorchSampler(trainer.module, **kw)
        if sc.type == "transformers":
            return trainer, TransformersSampler(trainer.module, **kw)
        model_dir = self.out / "hf_policy"
        trainer.module.lm.save_pretrained(model_dir)
        return trainer, VLLMSampler(str(model_dir), max_prompt_chars=cfg.model.max_prompt_chars,
                                    max_new_tokens=sc.max_new_tokens, temperature=sc.temperature, seed=tc.seed,
                                    end_bias=cfg.model.end_bias, weights_dir=self.out / "pushed_weights")

    # -- counters ----------------------------------------------------------------------------
    def counters(self) -> dict[str, int]:
        v = self.verifier
        return {k: int(getattr(v, k, 0)) for k in ("fresh_checks", "cache_hits", "prescreen_rejects")}

    def push(self) -> None:
        self.version += 1
        self.sampler.push(self.trainer.state_dict_for_sampler(), self.version)

    # -- evaluation ---------------------------------------------------------------------------
    def evaluate(self, problems: list[Problem] | None = None, samples: int | None = None) -> dict:
        problems = self.heldout if problems is None else problems
        n = samples or self.cfg.trainer.eval_samples
        t0 = time.perf_counter()
        groups = list(self.pool.map(lambda ip: self.env.run_group(ip[1], n, seed=10_000_000 + ip[0]),
                                    enumerate(problems)))
        solved = [e.solved for g in groups for e in g]
        fam: dict[str, list[bool]] = {}
        for g in groups:
            for e in g:
                fam.setdefault(e.family, []).append(e.solved)
        return {"step": self.step, "version": self.version, "pass1": sum(solved) / max(1, len(solved)),
                "problems": len(problems), "samples": n,
                "by_family": {k: sum(v) / len(v) for k, v in sorted(fam.items())},
                "seconds": time.perf_counter() - t0}


def trainable(e: Episode) -> bool:
    """An episode the trainer may learn from: it has turns and ended without an error (an
    interrupted or crashed episode's reward says nothing about its actions)."""
    return bool(e.turns) and e.error is None


def group_to_samples(job: Job, episodes: list[Episode]) -> list | None:
    """Algorithm hooks turn one group into ``TrainSample``s; ``None`` when the group is dropped
    (fewer than two trainable episodes, or ``algorithm.keep_group`` refuses its rewards)."""
    import torch

    from .policy import END
    from .trainer import TrainSample

    lm = job.cfg.model.type == "lm"
    valid = [e for e in episodes if trainable(e)]
    if len(valid) < 2:
        return None
    alg = job.algorithm
    rewards = [alg.shape_reward(e.reward, len(e.turns[-1].actions) + (0 if e.turns[-1].ended else 1)) for e in valid]
    if not alg.keep_group(rewards):
        return None
    adv = alg.advantages(torch.tensor(rewards, dtype=torch.float32)).tolist()
    out = []
    for e, a in zip(valid, adv):
        for t in e.turns:
            # tactic policies: END is implicit in ``ended``; a real LM's token ids already hold its EOS
            acts = tuple(t.actions) + ((END,) if t.ended and not lm else ())
            out.append(TrainSample(prompt=t.prompt, actions=acts, sampler_logprobs=t.logprobs, advantage=a,
                                   positive=e.solved, staleness=job.version - t.policy_version))
    return out


@dataclass(frozen=True)
class _Draw:
    """One problem drawn for a group, and the seed of the group's sampling (the problem
    sampler's cursor after the draw)."""

    problem: Problem
    seed: int


@dataclass(frozen=True)
class _RolledGroup:
    """A group of episodes on one problem, as the async workers hand it to the trainer."""

    problem: Problem
    episodes: list[Episode]


@dataclass
class _StepStats:
    """What one step's collection saw besides the kept groups."""

    episodes: list[Episode] = field(default_factory=list)
    """Every episode generated for the step, kept or not (all go to ``rollouts.jsonl``)."""
    dropped_uniform: int = 0
    """Groups dropped by ``algorithm.keep_group`` (all-equal rewards)."""
    dropped_stale: int = 0
    """Turns of groups dropped for being more than ``max_staleness`` versions behind."""


class _Workers:
    """Async rollout threads feeding a bounded queue until ``stop()``."""

    def __init__(self, job: Job):
        self.job = job
        cfg = job.cfg
        self.q: queue.Queue = queue.Queue(maxsize=job.local_groups * (cfg.async_.max_staleness + 1))
        self.stop_flag = threading.Event()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._run, daemon=True, name=f"rollout-{i}")
                        for i in range(cfg.async_.rollout_workers)]
        for t in self.threads:
            t.start()

    def _run(self) -> None:
        try:
            self._loop()
        finally:
            release = getattr(self.job.verifier, "close_thread_sessions", None)
            if release is not None:
                release()

    def _loop(self) -> None:
        job, n = self.job, self.job.cfg.sampler.group_size
        while not self.stop_flag.is_set():
            with self.lock:
                problem = job.problems.draw()
                seed = job.problems.cursor
            group = _RolledGroup(problem, job.env.run_group(problem, n, seed=seed))
            while not self.stop_flag.is_set():
                try:
                    self.q.put(group, timeout=0.2)
                    break
                except queue.Full:
                    continue

    def stop(self) -> None:
        self.stop_flag.set()
        for t in self.threads:
            t.join(timeout=60)


def _collect_sync(job: Job, stats: _StepStats) -> list:
    cfg = job.cfg
    groups: list = []
    rounds = 0
    while len(groups) < job.local_groups and rounds <= cfg.algorithm.max_refill_rounds:
        need = job.local_groups - len(groups)
        draws = []
        for _ in range(need):
            p = job.problems.draw()
            draws.append(_Draw(p, job.problems.cursor))
        results = list(job.pool.map(lambda d: job.env.run_group(d.problem, cfg.sampler.group_size, seed=d.seed), draws))
        for d, eps in zip(draws, results):
            _account(job, d.problem, eps, stats, groups)
        rounds += 1
    return groups


def _account(job: Job, problem: Problem, eps: list[Episode], stats: _StepStats, groups: list) -> None:
    stats.episodes.extend(eps)
    usable = [e for e in eps if e.turns]
    if usable:
        job.problems.record(problem.id, sum(e.solved for e in usable) / len(usable))
    samples = group_to_samples(job, eps)
    if samples is not None:
        groups.append(samples)
    elif sum(trainable(e) for e in eps) >= 2:
        stats.dropped_uniform += 1


def _collect_async(job: Job, workers: _Workers, stats: _StepStats) -> list:
    cfg = job.cfg
    groups: list = []
    while len(groups) < job.local_groups:
        group: _RolledGroup = workers.q.get()
        eps = group.episodes
        versions = [t.policy_version for e in eps for t in e.turns]
        if versions and job.version - min(versions) > cfg.async_.max_staleness:
            stats.dropped_stale += sum(len(e.turns) for e in eps)
            stats.episodes.extend(eps)
            continue
        _account(job, group.problem, eps, stats, groups)
    return groups


def train(cfg: RLConfig, output_dir: str | Path, *, verifier=None, log=print) -> dict:
    """Run the job; returns the summary also written to ``summary.json``."""
    from .metrics import MetricsWriter

    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(cfg.dump(), indent=2))
    job = Job(cfg, out, verifier=verifier)
    main = job.world.is_main  # rank 0 alone evaluates and writes outputs
    resumed = _resume(job, log)
    writer = MetricsWriter(out, tensorboard=cfg.output.tensorboard, append=resumed) if main else _NoWriter()
    summary: dict = {"resumed_at": job.step if resumed else None, "modes": {}}
    try:
        if not resumed and main:
            summary["heldout_before"] = _heldout(job, writer, "before", log)
        _train_steps(job, writer, summary, log)
        if not main:
            return summary
        _save_checkpoint(job)
        summary["heldout_after"] = _heldout(job, writer, "after", log)
        for m in summary["modes"].values():
            _finish(m)
        summary["verifier"] = job.counters() | {"source": getattr(job.verifier, "source", "custom")}
        (out / "summary.json").write_text(json.dumps(summary, indent=2))
        return summary
    finally:
        _close(job, writer, close_verifier=verifier is None)


def _resume(job: Job, log) -> bool:
    """Restore the last checkpoint when ``checkpoint.resume`` is on and one exists."""
    from . import checkpoint

    if not job.cfg.checkpoint.resume:
        return False
    st = checkpoint.load(job.out)
    if st is None:
        return False
    job.step, job.version = checkpoint.restore(st, trainer=job.trainer, sampler=job.sampler, problems=job.problems)
    job.sampler.push(job.trainer.state_dict_for_sampler(), job.version)
    log(f"resumed from step {job.step}")
    return True


def _save_checkpoint(job: Job) -> None:
    from . import checkpoint

    checkpoint.save(job.out, trainer=job.trainer, sampler=job.sampler, problems=job.problems,
                    step=job.step, version=job.version)


def _heldout(job: Job, writer, when: str, log) -> dict:
    """Evaluate on the held-out problems, record it as ``when`` and log it."""
    ev = job.evaluate()
    writer.evaluation({**ev, "when": when})
    log(f"held-out pass@1 {when}: {ev['pass1']:.3f} {ev['by_family']}")
    return ev


def _train_steps(job: Job, writer, summary: dict, log) -> None:
    """Steps until ``trainer.steps`` (or ``trainer.max_wall_s``), switching between sync and async
    collection as ``mode_at`` says; the async workers are stopped on the way out."""
    cfg, main = job.cfg, job.world.is_main
    workers = None
    t_steps = time.perf_counter()
    try:
        while job.step < cfg.trainer.steps:
            if cfg.trainer.max_wall_s is not None and time.perf_counter() - t_steps > cfg.trainer.max_wall_s:
                log(f"stopping after step {job.step}: trainer.max_wall_s = {cfg.trainer.max_wall_s:g} spent")
                summary["stopped_by_wall"] = job.step
                break
            mode = mode_at(cfg, job.step)
            if mode == "async" and workers is None:
                workers = _Workers(job)
            if mode == "sync" and workers is not None:
                workers.stop()
                workers = None
            row = _train_step(job, mode, workers, writer)
            _accumulate(summary["modes"].setdefault(mode, {}), row)
            if main:
                log(f"step {row.step:3d} [{mode}] loss {row.loss:+.4f} reward {row.reward_mean:.3f} "
                    f"solved {row.solved_rate:.3f} samples {row.samples} {row.step_seconds:.1f}s")
            if main and cfg.checkpoint.every and job.step % cfg.checkpoint.every == 0:
                _save_checkpoint(job)
    finally:
        if workers is not None:
            workers.stop()


def _train_step(job: Job, mode: str, workers: _Workers | None, writer) -> StepMetrics:
    """Collect this rank's groups (sync when ``workers`` is None), train on them, push the weights
    and write the step's rollouts and metrics row (with a held-out pass@1 on ``eval_every`` steps)."""
    t0 = time.perf_counter()
    c0 = job.counters()
    stats = _StepStats()
    groups = _collect_sync(job, stats) if workers is None else _collect_async(job, workers, stats)
    wait = time.perf_counter() - t0
    samples = [s for g in groups for s in g]
    res = job.trainer.step(samples)
    job.push()
    job.step += 1
    wall = time.perf_counter() - t0
    c1 = job.counters()
    eps = stats.episodes
    writer.rollouts(eps)
    row = _row(job, mode, res, samples, stats, wait, wall, {k: c1[k] - c0[k] for k in c1})
    if job.world.distributed:
        row = _global_row(row, eps, samples, res, job.world)
    tc = job.cfg.trainer
    if job.world.is_main and tc.eval_every and job.step % tc.eval_every == 0 and job.step < tc.steps:
        ev = job.evaluate()
        writer.evaluation({**ev, "when": "during"})
        row = row.model_copy(update={"heldout_pass1": ev["pass1"]})
    writer.step(row)
    return row


def _close(job: Job, writer, *, close_verifier: bool) -> None:
    """Release what the job holds: the metrics writer, rollout threads, environment sessions,
    the verifier (only one the job built itself), the sampler and the process group."""
    writer.close()
    job.pool.shutdown(wait=True)
    job.env.close()
    close = getattr(job.verifier, "close", None)
    if close is not None and close_verifier:
        close()
    close_sampler = getattr(job.sampler, "close", None)
    if close_sampler is not None:
        close_sampler()
    from .distributed import shutdown

    shutdown(job.world)


class _NoWriter:
    """What ranks other than 0 write: nothing."""

    def evaluation(self, row: dict) -> None: ...

    def rollouts(self, episodes) -> None: ...

    def step(self, row) -> None: ...

    def close(self) -> None: ...


def mode_at(cfg: RLConfig, step: int) -> str:
    """"sync" or "async" for 0-based ``step`` (see ``async.sync_steps`` and ``async.alternate_every``)."""
    a = cfg.async_
    if a.mode == "sync" or step < a.sync_steps:
        return "sync"
    if a.alternate_every:
        return "async" if ((step - a.sync_steps) // a.alternate_every) % 2 == 0 else "sync"
    return "async"


def _row(job: Job, mode: str, res: dict, samples: list, stats: _StepStats, wait: float, wall: float,
         dc: dict) -> StepMetrics:
    eps = stats.episodes
    done = [e for e in eps if e.turns]
    fam: dict[str, list[bool]] = {}
    for e in done:
        fam.setdefault(e.family, []).append(e.solved)
    stal = [s.staleness for s in samples]
    tokens = int(res.get("tokens", 0))
    seq_tokens = int(res.get("seq_tokens", 0))
    train_s = res.get("train_seconds", 0.0)
    return StepMetrics(
        step=job.step, mode=mode, policy_version=job.version, loss=res.get("loss", 0.0),
        reward_mean=sum(e.reward for e in done) / max(1, len(done)),
        solved_rate=sum(e.solved for e in done) / max(1, len(done)),
        samples=len(samples), tokens=tokens,
        groups_dropped_uniform=stats.dropped_uniform, samples_dropped_stale=stats.dropped_stale,
        episodes_streamed=sum(e.streamed for e in eps),
        episodes_interrupted=sum((e.error or "").startswith("interrupted") for e in eps),
        episodes_crashed=sum((e.error or "").startswith("crashed") for e in eps),
        staleness_mean=sum(stal) / max(1, len(stal)),
        clip_frac=res.get("clip_frac", 0.0), tis_weight_mean=res.get("tis_weight_mean", 1.0), kl=res.get("kl", 0.0),
        pos_nll=res.get("pos_nll", 0.0), entropy=res.get("entropy", 0.0), grad_norm=res.get("grad_norm", 0.0),
        step_seconds=wall, wait_seconds=wait, train_seconds=train_s,
        gen_seconds=sum(e.gen_seconds for e in eps), check_seconds=sum(e.check_seconds for e in eps),
        fresh_checks=dc.get("fresh_checks", 0), cache_hits=dc.get("cache_hits", 0),
        checker_share=_checker_share(wait, wall, eps),
        rollouts_per_s=len(eps) / wall if wall else 0.0,
        checks_per_s=(sum(len(e.turns) for e in eps)) / wall if wall else 0.0,
        train_tokens_per_s=tokens / train_s if train_s else 0.0,
        train_seq_tokens=seq_tokens,
        by_family={k: sum(v) / len(v) for k, v in sorted(fam.items())},
        problems_downweighted=job.problems.filtered_fraction(),
    )


def _global_row(row: StepMetrics, eps: list[Episode], samples: list, res: dict, world) -> StepMetrics:
    """``row`` with the episode and sample counts of all ranks (timings stay this rank's)."""
    from .distributed import all_sum

    done = [e for e in eps if e.turns]
    n, reward, solved, n_samples, tokens, seq = all_sum(
        [len(done), sum(e.reward for e in done), sum(e.solved for e in done), len(samples),
         res.get("tokens", 0.0), res.get("seq_tokens", 0.0)], world)
    return row.model_copy(update={"reward_mean": reward / max(1.0, n), "solved_rate": solved / max(1.0, n),
                                  "samples": int(n_samples), "tokens": int(tokens), "train_seq_tokens": int(seq)})


def _checker_share(wait: float, wall: float, eps: list[Episode]) -> float:
    """See ``StepMetrics.checker_share``."""
    gen = sum(e.gen_seconds for e in eps)
    check = sum(e.check_seconds for e in eps)
    if wall <= 0 or gen + check <= 0:
        return 0.0
    return (wait / wall) * check / (gen + check)


def _accumulate(acc: dict, row: StepMetrics) -> None:
    for k in ("step_seconds", "wait_seconds", "train_seconds", "gen_seconds", "check_seconds", "tokens",
              "train_seq_tokens",
              "fresh_checks", "cache_hits", "samples_dropped_stale", "groups_dropped_uniform"):
        acc[k] = acc.get(k, 0) + getattr(row, k)
    acc["steps"] = acc.get("steps", 0) + 1
    acc["rollouts"] = acc.get("rollouts", 0) + row.rollouts_per_s * row.step_seconds
    acc["checks"] = acc.get("checks", 0) + row.checks_per_s * row.step_seconds


def _finish(acc: dict) -> None:
    wall = acc.get("step_seconds", 0) or 1e-9
    acc["rollouts_per_s"] = acc.get("rollouts", 0) / wall
    acc["verdicts_per_s"] = acc.get("checks", 0) / wall
    acc["fresh_checks_per_s"] = acc.get("fresh_checks", 0) / wall
    acc["train_tokens_per_s"] = acc.get("tokens", 0) / max(1e-9, acc.get("train_seconds", 0))
    acc["train_seq_tokens_per_s"] = acc.get("train_seq_tokens", 0) / max(1e-9, acc.get("train_seconds", 0))
    acc["seconds_per_step"] = wall / max(1, acc.get("steps", 1))
    acc["share_waiting_for_rollouts"] = acc.get("wait_seconds", 0) / wall
    acc["share_training"] = acc.get("train_seconds", 0) / wall
    done = acc.get("gen_seconds", 0) + acc.get("check_seconds", 0)
    acc["share_waiting_for_checker"] = (acc.get("wait_seconds", 0) / wall) * (acc.get("check_seconds", 0) / done
                                                                              if done else 0.0)
