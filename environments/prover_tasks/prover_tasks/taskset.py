"""The prover's suites as a verifiers (v1) taskset.

Tasks (``ProverTasksetConfig.suite``):
- ``curriculum``: generated Rocq theorems (``rl.curriculum``; ``split`` train/heldout), each with
  a known witness that ``vf-validate`` checks as the gold solution;
- ``minif2f-rocq-valid``, ``minif2f-rocq-test``, ``putnam-coq``: from ``benchmarks.suites``;
- for users with Lean: ``minif2f-lean4-valid``, ``minif2f-lean4-test``, ``putnam-lean``, ``imo-lean``.
Any other ``benchmarks.suites`` name or a directory of ``.v``/``.lean`` files works too.

The model gets the problem file and the tools of ``toolset.py`` (``check``, ``goals``,
``run_tactic``, ``search``, ``auto_close``, ``verify``, ``prove``: the functions ``prover-mcp``
serves). Its answer is the whole proved file in its last fenced code block; if the last reply has
none, the ``proof`` of its last ``verify`` call is taken; a bare proof body is put into the
problem's file.

Reward ``verified``: 1.0 only when ``prover.tools.verify`` (the full soundness verdict: fresh
compile, statement unchanged, no axioms, no holes, no IO or code loading) accepts the answer,
run by the scorer itself: a claim in the conversation or a tool result earns nothing. Optional
shaping (``task.shaping_credit`` > 0, off by default): that credit for an answer the verdict
rejected only because it does not compile (it passed every static screen); nothing for an
answer rejected by a screen, the statement check or the axiom check. The verdict (stage,
reason) is written to ``trace.info["verdict"]``; a rollout that broke (no answer, a harness
error, a proof assistant that is not installed) scores 0 with its reason there: data, not a crash.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import verifiers.v1 as vf
from pydantic import Field

from prover_tasks.toolset import ProverToolset, ProverToolsetConfig

SYSTEM_PROMPT = """You prove theorems in {assistant} with tools. Every tool takes `problem`: pass the
problem file's full text exactly as given. Useful loop: `goals` (the goal and a state id),
`run_tactic` (one step from a state), `search` (library lemmas), `auto_close` (built-in
automation), `check` (compile a candidate), and `verify` (the final verdict; only an accepted
proof counts). Finish with the whole proved file in one ```{fence} code block."""

USER_PROMPT = """Prove the theorem {theorem} in this {assistant} file. Keep every line of it, and
replace only the proof (`{hole}`) with a complete one.

```{fence}
{text}
```"""


class ProverData(vf.TaskData):
    problem: str
    """The problem file (header, preamble, the theorem with a hole)."""
    language: str
    """``rocq`` or ``lean``."""
    theorem: str | None = None
    suite: str = ""
    reference: str | None = None
    """A known proof body (curriculum witnesses), for ``vf-validate``'s gold check; never shown."""


class ProverTaskConfig(vf.TaskConfig):
    verify_timeout_s: float = 300.0
    """Time limit of the scorer's verdict."""
    shaping_credit: float = 0.0
    """Reward for an answer that passed every static screen but does not compile (0: off)."""


class ProverTask(vf.Task[ProverData, vf.State, ProverTaskConfig]):
    @property
    def key(self) -> str:
        return self.data.id or self.hash

    @vf.reward(weight=1.0)
    async def verified(self, trace: vf.Trace) -> float:
        """1.0 when the soundness verdict accepts the answer (see the module docstring)."""
        candidate, source = final_candidate(trace, self.data.language)
        if candidate is None:
            trace.info["verdict"] = {"accepted": False, "stage": "answer", "reason": "no proof in the answer"}
            return 0.0
        try:
            v = await asyncio.to_thread(judge, self.data, candidate, self.config.verify_timeout_s)
        except Exception as e:  # noqa: BLE001 - a broken rollout is recorded data
            trace.info["verdict"] = {"accepted": False, "stage": "error", "reason": f"{type(e).__name__}: {e}", "source": source}
            return 0.0
        trace.info["verdict"] = {**v.model_dump(mode="json"), "source": source}
        if v.accepted:
            return 1.0
        return self.config.shaping_credit if v.stage == "compile" else 0.0

    async def validate(self, runtime) -> bool | None:
        """Gold check: the known witness, through the same verdict; None when there is none."""
        if not self.data.reference:
            return None
        v = await asyncio.to_thread(judge, self.data, self.data.reference, self.config.verify_timeout_s)
        return v.accepted


class ProverTasksetConfig(vf.TasksetConfig):
    suite: str = "curriculum"
    """curriculum, minif2f-rocq-valid, minif2f-rocq-test, putnam-coq, the Lean suites, or a directory."""
    data_dir: str | None = None
    """Benchmark data (default: ``$PROVER_BENCH_DATA`` or the bundled ``benchmarks/data``)."""
    split: str = "heldout"
    """Curriculum: ``train`` or ``heldout``."""
    size: int = 64
    """Curriculum: how many problems."""
    families: list[str] = Field(default_factory=list)
    """Curriculum families (empty: all)."""
    max_difficulty: int = 3
    seed: int = 0
    task: ProverTaskConfig = ProverTaskConfig()
    tools: ProverToolsetConfig = ProverToolsetConfig()


class ProverTaskset(vf.Taskset[ProverTask, ProverTasksetConfig]):
    @classmethod
    def toolsets(cls, config: ProverTasksetConfig) -> list[vf.Toolset]:
        return [ProverToolset(config.tools)]

    def load(self):
        cfg = self.config
        for row in _rows(cfg):
            yield ProverTask(row, cfg.task)


def _rows(cfg: ProverTasksetConfig):
    timeout = vf.TaskTimeout(scoring=cfg.task.verify_timeout_s + 60.0)
    if cfg.suite == "curriculum":
        from rl.curriculum import FAMILIES, generate

        if cfg.split not in ("train", "heldout"):
            raise ValueError(f"curriculum split must be 'train' or 'heldout', not {cfg.split!r}")
        fams = tuple(cfg.families or FAMILIES)
        train, held = generate(fams, cfg.max_difficulty, cfg.size if cfg.split == "train" else 0,
                               cfg.size if cfg.split == "heldout" else 0, seed=cfg.seed)
        for p in train if cfg.split == "train" else held:
            yield ProverData(id=p.id, name=p.name, prompt=_prompt(p.text, "rocq", p.name), system_prompt=_system("rocq"),
                             problem=p.text, language="rocq", theorem=p.name, suite="curriculum", reference=p.witness,
                             timeout=timeout)
        return
    from benchmarks.suites import get_suite

    for b in get_suite(cfg.suite, cfg.data_dir).load():
        theorem = b.theorem or b.name
        yield ProverData(id=b.id, name=b.name, prompt=_prompt(b.text, b.language, theorem), system_prompt=_system(b.language),
                         problem=b.text, language=b.language, theorem=b.theorem, suite=b.suite, timeout=timeout)


def _words(language: str) -> dict[str, str]:
    from lean_tools.assistant import assistant

    pa = assistant(language)
    return {"assistant": pa.display_name, "fence": pa.fences[0], "hole": pa.placeholder}


def _system(language: str) -> str:
    return SYSTEM_PROMPT.format(**_words(language))


def _prompt(text: str, language: str, theorem: str) -> str:
    return USER_PROMPT.format(text=text.rstrip(), theorem=theorem, **_words(language))


# --- scoring -------------------------------------------------------------------------------------
def final_candidate(trace: Any, language: str) -> tuple[str | None, str]:
    """(the answer's candidate text, where it came from) or (None, reason)."""
    from lean_tools.assistant import assistant

    lang = assistant(language)
    messages = list(trace.assistant_messages) if hasattr(trace, "assistant_messages") else []
    if messages and messages[-1].content:
        code = lang.extract_code(messages[-1].content)
        if code and code.strip():
            return code, "answer"
    for m in reversed(messages):
        for call in reversed(m.tool_calls or []):
            if call.name.rsplit("_", 1)[-1] == "verify" or call.name == "verify":
                try:
                    args = json.loads(call.arguments or "{}")
                except ValueError:
                    continue
                if isinstance(args, dict) and isinstance(args.get("proof"), str) and args["proof"].strip():
                    return args["proof"], "verify call"
    return None, "no answer"


def judge(data: ProverData, candidate: str, timeout: float):
    """``prover.tools.verify`` on ``candidate`` for ``data``'s problem (a bare body is put into the file)."""
    from prover import tools
    from prover.budget import Budget
    from prover.config import load_config
    from prover.problem import problem_from_text
    from prover.trace import Trace
    from prover.workspace import Workspace

    cfg = load_config(env={})
    problem = problem_from_text(data.problem, data.language, theorem=data.theorem)
    target = tools.Target.of_problem(Workspace(problem, cfg, Budget(cfg.budget), Trace(None), pool=None))
    if not any(d.name == problem.theorem_name for d in target.ws.lang.declarations(candidate)):
        candidate = target.candidate(_strip_fence(candidate))
    return tools.verify(target, candidate, budget_s=timeout)


def _strip_fence(text: str) -> str:
    return re.sub(r"^```\w*\n|```\s*$", "", text.strip())
