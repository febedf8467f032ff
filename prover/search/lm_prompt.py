"""The text a tactic language model sees and writes: one goal in, one tactic sentence out.

Training (``rl.tactic_sft``) and the search's model source (``lm_source.py``) both build their
prompts here, so the model is asked exactly the way it was taught. The prompt is plain text (no
chat template): the focused goal's conclusion, then as many hypotheses as fit, nearest (last
printed) first kept, then a line asking for the tactic. The completion is the tactic sentence
followed by a newline; the model's end-of-text token ends it.

Kept short on purpose: a 135M model on two CPU cores pays for every prompt token, and the
conclusion with the hypotheses it mentions carries most of what decides the next tactic.
Imports nothing heavy (no torch).
"""

from __future__ import annotations

from .knn_index import Goal, goal_from_text

PROMPT_CHARS = 700
"""Default bound on the goal part of a prompt, in characters (about 200-300 tokens)."""
CONCLUSION_CHARS = 400
"""A longer conclusion is cut to this many characters (its head kept)."""
HEADER = "Rocq goal"
FOOTER = "Next tactic:"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3].rstrip() + " ..."


def goal_block(goal: Goal, max_chars: int = PROMPT_CHARS) -> str:
    """The goal as the model reads it: hypotheses (nearest kept first when they do not all fit),
    the bar, the conclusion, and ``(+N other goals)`` when more goals are focused."""
    conclusion = _clip(" ".join(goal.conclusion.split()), CONCLUSION_CHARS)
    room = max_chars - len(conclusion)
    kept: list[str] = []
    for hyp in reversed(goal.hypotheses):
        line = " ".join(hyp.split())
        if len(line) + 1 > room:
            break
        kept.append(line)
        room -= len(line) + 1
    lines = [*reversed(kept), "====", conclusion]
    if goal.others:
        lines.append(f"(+{goal.others} other goals)")
    return "\n".join(lines)


def tactic_prompt(goal: Goal | str, others: int = 0, max_chars: int = PROMPT_CHARS) -> str:
    """The prompt for one goal: a ``Goal`` or the goal text exactly as ``RocqSession`` prints it
    (``others``: how many more goals are focused; ignored for a ``Goal``, which carries it)."""
    if isinstance(goal, str):
        goal = goal_from_text(goal, others)
    return f"{HEADER}:\n{goal_block(goal, max_chars)}\n{FOOTER}"


def tactic_completion(tactic: str) -> str:
    """The training target for ``tactic``: a space, the sentence with whitespace collapsed, a newline."""
    return " " + " ".join(tactic.split()) + "\n"


def parse_completion(text: str) -> str | None:
    """The tactic a model wrote: its first line, stripped; None when empty or not one sentence
    ending in a period."""
    line = text.split("\n", 1)[0].strip()
    if not line.endswith(".") or line == ".":
        return None
    return line
