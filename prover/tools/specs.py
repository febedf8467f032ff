"""The lemma agents' function specs (``ToolSpec``) and the names of the served tools."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lean_tools.assistant import assistant

from ..llm.base import ToolSpec

if TYPE_CHECKING:
    from ..config import ProverConfig


def _obj(props: dict, required: list[str]) -> dict:
    return {"type": "object", "properties": props, "required": required}


CHECK = ToolSpec(
    name="check",
    description="Check a complete proof of the lemma. Returns OK, or the errors and the goals left open.",
    parameters=_obj({"proof": {"type": "string", "description": "the proof body (tactics)"}}, ["proof"]),
)
GOALS = ToolSpec(
    name="goals",
    description="Show the goals after running the given tactics on the lemma (empty: the initial goal).",
    parameters=_obj({"proof": {"type": "string", "description": "a proof prefix (tactics); may be empty"}}, []),
)
SEARCH = ToolSpec(
    name="search",
    description=(
        "Search the library. Rocq: a `Search` pattern such as `(Rabs (_ * _))` or `Nat.mod`. "
        "Lean: runs exact?/apply? on the lemma."
    ),
    parameters=_obj({"query": {"type": "string"}}, ["query"]),
)
AUTO_CLOSE = ToolSpec(
    name="auto_close",
    description="Run the built-in automation (decision procedures and a short tactic search) on the whole lemma.",
    parameters=_obj({"budget_s": {"type": "number", "description": "time limit in seconds, default 10"}}, []),
)
HAMMER = ToolSpec(
    name="hammer",
    description=(
        "Rocq: run CoqHammer (external ATPs find the library lemmas, a sauto/hauto reconstruction is replayed) on the whole lemma "
        "after intros. Slow (20-60 s) and often fails; a proof found uses only the reconstruction tactics."
    ),
    parameters=_obj({"budget_s": {"type": "number", "description": "time limit in seconds, default 30"}}, []),
)
PYTHON = ToolSpec(
    name="python",
    description="Run a short Python 3 snippet (no network, a few seconds, 1 GB) and return what it prints. For numeric exploration.",
    parameters=_obj({"code": {"type": "string"}}, ["code"]),
)
SPLIT = ToolSpec(
    name="split_lemma",
    description=(
        "Split the lemma: give new sub-lemmas (full declarations, e.g. `Lemma foo (x : R) : x * x >= 0.`) "
        "and a complete proof of the current lemma that uses them. The sub-lemmas are then proved separately. "
        "Their names get the current lemma's name as a prefix (foo -> CURRENT_foo), in the proof too."
    ),
    parameters=_obj(
        {
            "lemmas": {"type": "array", "items": {"type": "string"}, "description": "declarations of the sub-lemmas, without proofs"},
            "proof": {"type": "string", "description": "proof of the current lemma using the sub-lemmas"},
        },
        ["lemmas", "proof"],
    ),
)
GIVE_UP = ToolSpec(
    name="give_up",
    description="Stop working on this lemma (say why; the sketch stage will try another decomposition).",
    parameters=_obj({"reason": {"type": "string"}}, []),
)

AGENT_TOOLS = (CHECK, GOALS, SEARCH, AUTO_CLOSE, PYTHON, SPLIT, GIVE_UP)


def agent_tools(config: ProverConfig, language: str) -> tuple[ToolSpec, ...]:
    """The lemma agents' tools: ``AGENT_TOOLS``, plus ``hammer`` for Rocq when the checks load
    CoqHammer's reconstruction tactics (``"Hammer.Tactics"`` in ``prover.allowed_requires``), so
    that a lemma proof made of them checks like any other."""
    if assistant(language).hammer == "CoqHammer" and "Hammer.Tactics" in config.prover.allowed_requires:
        return (*AGENT_TOOLS, HAMMER)
    return AGENT_TOOLS
ALL = AGENT_TOOLS
SERVED = ("check", "goals", "run_tactic", "search", "auto_close", "hammer", "verify", "prove")
"""The tools ``prover-mcp`` and the verifiers toolset serve (functions of ``prover.tools``)."""
