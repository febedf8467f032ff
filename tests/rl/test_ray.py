"""Ray for real: a local ``ray.init(num_cpus=2)`` runs rollout and checking workers.

The reward on Ray is the very same full verdict as the local path (``rl.verifier.full_verdict``,
run as a Ray task by ``rl.distributed.remote_verdict``), so a cheat that compiles (an ``Axiom``
that proves anything) is rewarded 0 there too. Markers ``ray`` (``make test-llm``) and ``rocq``.
About a minute on 2 shared cores, most of it starting Ray."""

from __future__ import annotations

import pytest

try:
    import ray
except ImportError:  # the `ray` marker's check in tests/conftest.py reports a missing Ray
    ray = None

pytestmark = [pytest.mark.ray, pytest.mark.rocq]


def _actor(cls):
    """``cls`` as a Ray actor class, bound under its own name at import: Ray's pickler then ships
    the class by value, so the worker does not need to import this test module."""
    return ray.remote(num_cpus=1)(cls) if ray is not None else cls


@pytest.fixture(scope="module")
def local_ray():
    assert ray is not None  # the `ray` marker skipped (or, under CI, failed) the test otherwise
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        yield ray
    finally:
        ray.shutdown()


def _problem(family: str):
    from rl.curriculum import generate

    train, _ = generate((family,), 1, 4, 1, seed=0)
    return next(p for p in train if p.family == family)


def _axiom_cheat(problem) -> str:
    head = (problem.header + "\n") if problem.header else ""
    return (f"{head}Axiom cheat : forall P : Prop, P.\n"
            f"Theorem {problem.name} {problem.statement}.\nProof.\n  exact (cheat _).\nQed.\n")


def test_remote_verdict_is_the_local_verdict_and_refuses_a_compiling_cheat(local_ray):
    from lean_tools.rocq.checker import RocqChecker
    from rl.distributed import remote_verdict
    from rl.verifier import full_verdict

    p = _problem("taut")
    remote = remote_verdict()
    honest = p.with_proof(p.witness)
    got, local = remote(p.text, honest, 60.0), full_verdict(p.text, honest, 60.0)
    assert got == local and got[0] is True

    cheat = _axiom_cheat(p)
    assert RocqChecker().check_file(cheat, timeout=60).ok  # bare coqc accepts it: it is a cheat that compiles
    got = remote(p.text, cheat, 60.0)
    assert got[0] is False
    assert got == full_verdict(p.text, cheat, 60.0)


@_actor
class RolloutWorker:
    """A rollout worker on Ray: its own tiny policy and sampler, checks sent to Ray verdict tasks."""

    def __init__(self, seed: int):
        import torch

        from rl.action_samplers import TorchSampler
        from rl.config import EnvConfig, ModelConfig
        from rl.distributed import remote_verdict
        from rl.policy import build_model
        from rl.tactic_env import Environment
        from rl.verifier import Verifier

        torch.manual_seed(seed)
        model = build_model(ModelConfig(d_model=32, n_layers=1, n_heads=2), 3)
        self.sampler = TorchSampler(model, max_prompt_chars=192, max_new_tokens=3, seed=seed, end_bias=3.0)
        self.sampler.push(model.state_dict(), 0)
        self.verifier = Verifier(prescreen=False, cache=False, timeout=60, remote_check=remote_verdict())
        self.env = Environment(self.verifier, self.sampler, EnvConfig(prescreen=False, cache_verdicts=False))

    def rollouts(self, problem_json: str, n: int, seed: int) -> list[str]:
        from rl.records import Problem

        eps = self.env.run_group(Problem.from_json(problem_json), n, seed=seed)
        return [e.to_json() for e in eps]

    def source(self) -> str:
        return self.verifier.source


def test_rollout_workers_on_ray_are_rewarded_by_the_full_verdict(local_ray):
    from rl.records import Episode
    from rl.verifier import Verifier

    p = _problem("eval_nat")
    worker = RolloutWorker.remote(0)
    episodes = [Episode.from_json(j) for j in local_ray.get(worker.rollouts.remote(p.to_json(), 6, 1))]
    assert local_ray.get(worker.source.remote()).endswith(":remote")
    assert len(episodes) == 6 and all(e.error is None for e in episodes)
    local = Verifier(prescreen=False, cache=False, timeout=60)
    try:
        for e in episodes:
            script = e.turns[-1].script
            assert e.turns[-1].verdict.source.endswith(":remote")
            assert e.solved == local.verdict(p, script).accepted
            assert e.reward == (1.0 if e.solved else 0.0)
    finally:
        local.close()
