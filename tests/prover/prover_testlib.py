"""Helpers for the prover tests: paths and ``Router`` (scripted-LLM
answers routed per stage / per lemma). A uniquely named module, so it cannot collide with
other areas' helpers when the whole suite runs in one process."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from prover.llm import ScriptedLLM

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "prover"


class Router:
    """``Router(informal=[...], sketch=[...], lemmas={"l1": [...]}, verify=[...])`` -> a ScriptedLLM.

    Requests are recognised by their prompts: the informal prompt, its verifier, the sketch prompt (and its
    repair follow-ups), and lemma agents (by the lemma name in the task). An empty queue
    answers with a give_up call (agents) or an error (other stages).
    """

    def __init__(self, informal=None, sketch=None, lemmas=None, verify=None):
        self.queues = {"informal": list(informal or ["An informal proof."]), "sketch": list(sketch or []), "verify": list(verify or [])}
        for name, items in (lemmas or {}).items():
            self.queues[f"lemma:{name}"] = list(items)
        self.seen: list[str] = []
        self._lock = threading.Lock()
        self.llm = ScriptedLLM(self._route)

    def _key(self, messages) -> str:
        first_user = next(m.content for m in messages if m.role == "user")
        if messages[0].role == "system":
            m = re.search(r"```\w*\n\s*(?:Lemma|Theorem|lemma|theorem)\s+([\w']+)", first_user)
            return f"lemma:{m.group(1) if m else '?'}"
        if "formal proof *sketch*" in first_user:
            return "sketch"
        if "meticulous grader" in first_user:  # the informal verifier (prompts/informal_verify.md)
            return "verify"
        return "informal"

    def _route(self, messages, tools):
        key = self._key(messages)
        with self._lock:
            self.seen.append(key)
            q = self.queues.get(key, [])
            if q:
                return q.pop(0)
        if key.startswith("lemma:"):
            return {"tool": "give_up", "args": {"reason": "script ran out"}}
        from prover.llm.base import error_response

        return error_response(f"no scripted answer for {key}")
