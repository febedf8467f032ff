"""Live terminal view of a run (rich): the lemma tree with each lemma's status, and the
budget spent so far. It only listens to trace events, so it shows exactly what the trace
records; it never touches the prover's state."""

from __future__ import annotations

import threading
import time
from typing import Self

from rich.console import Console, Group
from rich.live import Live
from rich.text import Text
from rich.tree import Tree

from .records import TraceEvent

_STYLE = {"pending": "dim", "proving": "yellow", "proved": "green", "failed": "red", "stopped": "magenta"}


class LiveView:
    def __init__(self, problem: str, console: Console | None = None):
        self.problem = problem
        self.console = console or Console(stderr=True)
        self.stage = "starting"
        self.status: dict[str, str] = {}
        self.detail: dict[str, str] = {}
        self.parent: dict[str, str | None] = {}
        self.order: list[str] = []
        self.tokens = 0
        self.attempts = 0
        self.llm_calls = 0
        self.llm_errors = 0
        self.last_llm_error = ""
        self.notice = ""
        self.informal: dict[str, int] = {}
        """Informal-loop counters: candidates, judged, checks, refuted, revisions."""
        self.informal_best: float | None = None
        self.informal_selected = ""
        self.t0 = time.monotonic()
        self.final: str | None = None
        self._lock = threading.Lock()
        self._live: Live | None = None

    def _add(self, name: str, parent: str | None) -> None:
        if name not in self.status:
            self.status[name] = "pending"
            self.parent[name] = parent
            self.order.append(name)

    def on_event(self, ev: TraceEvent) -> None:
        d = ev.data
        with self._lock:
            if ev.kind == "llm_call":
                self.tokens += int(d.get("prompt_tokens") or 0) + int(d.get("completion_tokens") or 0)
                self.llm_calls += 1
                if d.get("error"):
                    self.llm_errors += 1
                    self.last_llm_error = str(d["error"])[:80]
            elif ev.kind.startswith("informal_") or ev.kind == "sandbox_check":
                self._on_informal(ev.kind, d)
            elif ev.kind == "llm_fallback":
                self.notice = "model: switched to text tools (server refused native tool calls)"
            elif ev.kind in ("attempt", "search"):
                self.attempts += 1
                if ev.kind == "search" and ev.lemma is None:
                    self.stage = "built-in search"
            elif ev.kind == "stage":
                self.stage = str(d.get("stage", self.stage))
            elif ev.kind == "sketch":
                self.stage = f"sketch round {d.get('round', 0)}: proving lemmas"
                for name in d.get("lemmas", []):
                    self._add(name, None)
            elif ev.kind == "sketch_error":
                self.stage = f"repairing sketch (round {d.get('round', 0)})"
            elif ev.kind == "lemma_start" and ev.lemma:
                self._add(ev.lemma, None)
                self.status[ev.lemma] = "proving"
            elif ev.kind == "split" and ev.lemma and d.get("ok"):
                for name in d.get("sublemmas", []):
                    self._add(name, ev.lemma)
            elif ev.kind == "lemma" and ev.lemma:
                self._add(ev.lemma, None)
                self.status[ev.lemma] = "proved" if d.get("proved") else "failed"
                self.detail[ev.lemma] = str(d.get("source") or d.get("reason") or "")[:60]
            elif ev.kind == "verdict":
                self.stage = "verdict: " + ("accepted" if d.get("accepted") else "rejected")
            elif ev.kind == "end":
                self.final = "proved" if d.get("proved") else f"not proved: {str(d.get('reason', ''))[:80]}"
        if self._live is not None:
            self._live.update(self.render())

    def _on_informal(self, kind: str, d: dict) -> None:
        c = self.informal
        if kind == "informal_candidate":
            c["candidates"] = c.get("candidates", 0) + 1
            self.stage = f"informal: {c['candidates']} candidate(s)"
        elif kind == "informal_judgement":
            c["judged"] = c.get("judged", 0) + 1
            score = float(d.get("score") or 0.0)
            self.informal_best = score if self.informal_best is None else max(self.informal_best, score)
            self.stage = f"informal: judged {d.get('candidate')} {score:.2f}"
        elif kind == "sandbox_check":
            c["checks"] = c.get("checks", 0) + 1
            if d.get("status") == "refuted":
                c["refuted"] = c.get("refuted", 0) + 1
        elif kind == "informal_revision":
            c["revisions"] = c.get("revisions", 0) + 1
            self.stage = f"informal: revising (round {d.get('round')})"
        elif kind == "informal_selected":
            self.informal_selected = str(d.get("selected") or "none")
            self.stage = f"informal: selected {self.informal_selected}"

    def render(self):
        with self._lock:
            root = Tree(Text(f"{self.problem}  [{self.final or self.stage}]", style="bold"))
            nodes = {}
            for name in self.order:
                st = self.status[name]
                label = Text(f"{name}: {st}" + (f" ({self.detail[name]})" if self.detail.get(name) else ""), style=_STYLE.get(st, ""))
                parent = nodes.get(self.parent.get(name) or "", root)
                nodes[name] = parent.add(label)
            footer = Text(
                f"wall {time.monotonic() - self.t0:6.1f}s  tokens {self.tokens}  llm calls {self.llm_calls}  checks {self.attempts}",
                style="cyan",
            )
            extra = []
            if self.informal:
                c = self.informal
                best = f"{self.informal_best:.2f}" if self.informal_best is not None else "-"
                extra.append(
                    Text(
                        f"informal: {c.get('candidates', 0)} candidates, {c.get('judged', 0)} judged (best {best}), "
                        f"{c.get('checks', 0)} sandbox checks ({c.get('refuted', 0)} refuted), {c.get('revisions', 0)} revisions"
                        + (f", selected {self.informal_selected}" if self.informal_selected else ""),
                        style="blue",
                    )
                )
            if self.llm_errors:
                extra.append(Text(f"model errors {self.llm_errors}; last: {self.last_llm_error}", style="red"))
            if self.notice:
                extra.append(Text(self.notice, style="yellow"))
            return Group(root, footer, *extra)

    def __enter__(self) -> Self:
        self._live = Live(self.render(), console=self.console, refresh_per_second=4, transient=False)
        self._live.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self._live is not None:
            self._live.update(self.render())
            self._live.__exit__(*exc)
            self._live = None
