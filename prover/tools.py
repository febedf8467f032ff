"""The lemma agent's tools, as OpenAI-style function specs (JSON schemas).

check_proof, show_goals, search_library, run_automation, python, split_lemma, give_up.
Their behaviour is in ``prover.agent.LemmaAgent``.
"""

from __future__ import annotations

from .llm.base import ToolSpec


def _obj(props: dict, required: list[str]) -> dict:
    return {"type": "object", "properties": props, "required": required}


CHECK = ToolSpec(
    name="check_proof",
    description="Check a complete proof of the lemma. Returns OK, or the errors and the goals left open.",
    parameters=_obj({"proof": {"type": "string", "description": "the proof body (tactics)"}}, ["proof"]),
)
GOALS = ToolSpec(
    name="show_goals",
    description="Show the goals after running the given tactics on the lemma (empty: the initial goal).",
    parameters=_obj({"tactics": {"type": "string", "description": "a proof prefix; may be empty"}}, []),
)
SEARCH = ToolSpec(
    name="search_library",
    description="Search the library. Rocq: a `Search` pattern such as `(Rabs (_ * _))` or `Nat.mod`. Lean: runs exact?/apply? on the lemma.",
    parameters=_obj({"query": {"type": "string"}}, ["query"]),
)
AUTO = ToolSpec(
    name="run_automation",
    description="Run the built-in automation (decision procedures and a short tactic search) on the whole lemma.",
    parameters=_obj({"seconds": {"type": "number", "description": "time limit, default 10"}}, []),
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

ALL = (CHECK, GOALS, SEARCH, AUTO, PYTHON, SPLIT, GIVE_UP)
