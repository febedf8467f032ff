"""The agentic lemma prover: a multi-turn model conversation with tools, for one lemma.

Each turn the model answers with tool calls (OpenAI function calls, or ``<tool_call>``
blocks) or text. Tools (the functions of ``prover.tools``, the ones ``prover-mcp`` serves):
``check`` (success ends the conversation), ``goals``, ``search``, ``auto_close``
(``prover.search``), ``python`` (sandboxed subprocess), ``split_lemma`` (sub-lemmas proved recursively through ``prove_sub``, bounded
by ``split_depth``), ``give_up``. A reply with a code block but no tool call is checked as
a proof; after a reply with neither, the next turn asks for a tool call
(``tool_choice = "required"``). Model failures are data: a malformed call gets an error message back and the
conversation goes on; three model errors in a row end it. The result is a ``LemmaResult``;
it is tentative until the assembled file passes the soundness verdict.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from lean_tools.assistant import assistant

from . import prompts, tools
from .chat import call_model
from .llm.base import ChatMessage, ChatModel, ToolCall
from .records import Attempt, LemmaGoal, LemmaResult, LemmaSpec, Problem
from .workspace import join_code

MAX_MODEL_ERRORS = 3


def render_helpers(language: str, helpers: tuple[LemmaSpec, ...]) -> str:
    lang = assistant(language)
    return "\n".join(lang.render(h.declaration, h.proof or "") for h in helpers)


def _surroundings(problem: Problem, fence: str) -> str:
    """The hole's section context and most relevant earlier lemmas (a project file's hole), as
    the task prompt shows them; "" otherwise."""
    from .premises import prompt_block

    block = prompt_block(problem.hole_context, fence)
    return f"{block}\n\n" if block else ""


class LemmaAgent:
    def __init__(
        self,
        goal: LemmaGoal,
        ws,
        llm: ChatModel,
        *,
        prove_sub: Callable[[LemmaGoal], LemmaResult],
        make_goal: Callable[..., LemmaGoal],
        notes: str = "",
    ):
        self.goal = goal
        self.ws = ws
        self.llm = llm
        self.cfg = ws.config
        self.trace = ws.trace
        self.budget = ws.budget
        self.prove_sub = prove_sub
        self.make_goal = make_goal
        self.notes = notes
        self.lang = assistant(goal.language)
        self.target = tools.Target.of_goal(ws, goal)
        self.attempts = 0
        self.t0 = time.monotonic()

    # --- helpers -----------------------------------------------------------------------------
    def _emit(self, kind: str, **data) -> None:
        self.trace.emit(kind, problem=self.goal.problem, lemma=self.goal.name, **data)

    def _result(self, proved: bool, *, proof: str | None = None, reason: str = "", sublemmas: tuple[LemmaSpec, ...] = ()) -> LemmaResult:
        return LemmaResult(
            name=self.goal.name,
            proved=proved,
            proof=proof,
            source="split" if sublemmas else "agent",
            reason=reason,
            attempts=self.attempts,
            sublemmas=sublemmas,
            wall_s=round(time.monotonic() - self.t0, 3),
        )

    def _check(self, proof: str) -> tuple[str, LemmaResult | None]:
        self.attempts += 1
        try:
            rep = tools.check(self.target, proof, holes=False)
        except tools.ToolInputError as e:
            return f"error: check: {e}", None
        body = tools.split_proof(self.target, proof).body
        if rep.refused is None:
            att = Attempt(
                lemma=self.goal.name,
                proof=body,
                ok=rep.complete,
                source="agent",
                errors=rep.error_lines()[:3],
                goals=rep.goals[:2],
                cpu_s=rep.cpu_seconds,
                wall_s=rep.seconds,
            )
            self._emit("attempt", **att.model_dump(exclude={"lemma"}))
        if rep.complete:
            return "OK: the lemma is proved.", self._result(True, proof=body)
        return rep.text(), None

    # --- tools ---------------------------------------------------------------------------
    def _tool(self, call: ToolCall) -> tuple[str, LemmaResult | None]:
        """One call of a ``prover.tools`` function, under its own name; bad arguments get an error text."""
        args = call.arguments or {}
        name = call.name
        try:
            if name == tools.CHECK.name:
                proof = args.get("proof")
                if not isinstance(proof, str) or not proof.strip():
                    return "error: check needs a non-empty string argument `proof`", None
                return self._check(proof)
            if name == tools.GOALS.name:
                return tools.goals(self.target, str(args.get("proof") or "")).text(), None
            if name == tools.SEARCH.name:
                return tools.search(self.target, str(args.get("query") or "")).results, None
            if name == tools.AUTO_CLOSE.name:
                try:
                    seconds = float(args.get("budget_s") or self.cfg.search.lemma_timeout_s)
                except (TypeError, ValueError):
                    seconds = self.cfg.search.lemma_timeout_s
                self.attempts += 1
                out = tools.auto_close(self.target, budget_s=seconds)
                if out.proved and out.proof:
                    return "OK: automation proved the lemma.", LemmaResult(
                        name=self.goal.name,
                        proved=True,
                        proof=out.proof,
                        source="automation",
                        attempts=self.attempts,
                        wall_s=round(time.monotonic() - self.t0, 3),
                    )
                return f"automation did not prove it ({out.tried})", None
            if name == tools.PYTHON.name:
                return tools.python(self.ws, str(args.get("code") or "")), None
            if name == tools.HAMMER.name and tools.HAMMER in tools.agent_tools(self.cfg, self.ws.problem.language):
                self.attempts += 1
                hammered = tools.hammer(self.target, budget_s=self.cfg.search.hammer_timeout_s)
                if hammered.proved and hammered.proof:
                    return "OK: CoqHammer proved the lemma.", LemmaResult(
                        name=self.goal.name, proved=True, proof=hammered.proof, source="automation",
                        attempts=self.attempts, wall_s=round(time.monotonic() - self.t0, 3),
                    )
                return f"hammer did not prove it ({hammered.tried})", None
        except tools.ToolInputError as e:
            return f"error: {name}: {e}", None
        if name == "split_lemma":
            return self._split(args)
        if name == "give_up":
            return "ok", self._result(False, reason="gave up: " + str(args.get("reason") or "")[:300])
        return f"error: unknown tool {name!r}; available: {', '.join(t.name for t in tools.AGENT_TOOLS)}", None

    def _split(self, args: dict) -> tuple[str, LemmaResult | None]:
        goal = self.goal
        if goal.depth + 1 > self.cfg.prover.split_depth:
            return f"error: split depth limit ({self.cfg.prover.split_depth}) reached; prove this lemma directly", None
        decls = args.get("lemmas")
        proof = args.get("proof")
        if not isinstance(decls, list) or not decls or not all(isinstance(d, str) for d in decls) or not isinstance(proof, str):
            return "error: split_lemma needs `lemmas` (a list of declaration strings) and `proof` (a string)", None
        # Prefix sub-lemma names with this lemma's name, so that sub-lemmas of different lemmas
        # (proved in parallel) can never clash in the assembled file.
        raw_names = [self.lang.declarations(self.lang.render_hole(d)) for d in decls]
        if all(len(one) == 1 for one in raw_names):
            for one in raw_names:
                old = one[0].name
                if not old.startswith(goal.name + "_"):
                    new = f"{goal.name}_{old}"
                    pat = re.compile(rf"(?<![\w.']){re.escape(old)}(?![\w'])")
                    decls = [pat.sub(new, d) for d in decls]
                    proof = pat.sub(new, proof)
        parsed = []
        for d in decls:
            found = self.lang.declarations(self.lang.render_hole(d))
            if len(found) != 1:
                return f"error: not one lemma declaration: {d[:200]!r}", None
            parsed.append(found[0])
        names = [p.name for p in parsed]
        if len(set(names)) != len(names) or goal.name in names:
            return "error: sub-lemma names must be distinct and differ from the current lemma", None
        known = {d.name for d in self.lang.declarations(self.ws.env_header + "\n" + goal.context)} | {self.ws.problem.theorem_name}
        clash = sorted(set(names) & known)
        if clash:
            return f"error: these names are already declared: {', '.join(clash)}; choose fresh names", None
        holes = "\n".join(self.lang.render_hole(p.declaration) for p in parsed)
        self.attempts += 1
        res = self.ws.check_decl(join_code(goal.context, holes), goal.declaration, proof)
        self._emit("split", ok=res.complete, sublemmas=names, errors=list(res.errors[:3]))
        if not res.complete:
            return "The proof does not compile with those sub-lemmas:\n" + res.feedback(), None
        helpers: list[LemmaSpec] = []
        context = goal.context
        failed = []
        for p in parsed:
            sub = self.make_goal(p.name, p.declaration.strip(), context, depth=goal.depth + 1, parent=goal.name)
            r = self.prove_sub(sub)
            if not r.proved:
                failed.append(f"{p.name}: {r.reason}")
                context = join_code(context, self.lang.render_hole(p.declaration))
                continue
            helpers.extend(r.sublemmas)
            spec_ = LemmaSpec(name=p.name, declaration=p.declaration.strip(), proof=r.proof, depth=goal.depth + 1, parent=goal.name)
            helpers.append(spec_)
            context = join_code(
                context, join_code(render_helpers(goal.language, r.sublemmas), self.lang.render(p.declaration, r.proof or ""))
            )
        if failed:
            return "These sub-lemmas could not be proved:\n" + "\n".join(failed), None
        final = self.ws.check_decl(context, goal.declaration, proof)
        if not final.complete:
            return "The sub-lemmas are proved but the combined proof fails:\n" + final.feedback(), None
        return f"OK: all sub-lemmas ({', '.join(names)}) proved; the lemma is proved.", self._result(
            True, proof=proof, sublemmas=tuple(helpers)
        )

    # --- the conversation -----------------------------------------------------------------
    def run(self) -> LemmaResult:
        messages: list[ChatMessage] = []
        result = self._run(messages)
        if self.cfg.prover.record_conversations:
            self._emit("conversation", proved=result.proved, messages=[m.model_dump(mode="json") for m in messages])
        return result

    def _run(self, messages: list[ChatMessage]) -> LemmaResult:
        values = dict(self.lang.prompt_values)
        system = prompts.render("agent_system", **values)
        start = self.ws.goals_after(self.goal.context, self.goal.declaration, "")
        notes = self.notes
        if start.goals:
            notes = f"Initial goal:\n{start.goals[0]}\n\n{notes}".rstrip()
        user = prompts.render(
            "agent_task",
            declaration=self.goal.declaration,
            context=(self.ws.env_header + "\n" + self.goal.context).strip() or "(nothing)",
            surroundings=_surroundings(self.ws.problem, values.get("fence", "")),
            notes=notes,
            **values,
        )
        messages += [ChatMessage(role="system", content=system), ChatMessage(role="user", content=user)]
        model_errors = 0
        last = "no turns taken"
        required = False  # after an answer with neither a tool call nor a proof: ask for a call
        for _turn in range(self.cfg.prover.agent_turns):
            sampling = self.cfg.sampling.model_copy(update={"tool_choice": "required"}) if required else None
            resp = call_model(
                self.llm,
                messages,
                budget=self.budget,
                trace=self.trace,
                problem=self.goal.problem,
                stage="agent",
                lemma=self.goal.name,
                tools=tools.agent_tools(self.cfg, self.ws.problem.language),
                sampling=sampling,
            )
            if not resp.ok:
                if (resp.error or "").startswith("no time left"):
                    return self._result(False, reason=f"model error: {resp.error}")
                model_errors += 1
                last = f"model error: {resp.error}"
                if model_errors >= MAX_MODEL_ERRORS:
                    return self._result(False, reason=f"{MAX_MODEL_ERRORS} model errors in a row; last: {resp.error}")
                continue
            model_errors = 0
            required = False
            messages.append(resp.as_message())
            if not resp.tool_calls:
                code = self.lang.extract_code(resp.text)
                if code is None:
                    last = "answered without a tool call or proof"
                    note = "Use the tools: check with a complete proof, or give_up."
                    if resp.finish_reason == "length":
                        note = "Your answer was cut off (token limit). Be shorter. " + note
                    messages.append(ChatMessage(role="user", content=note))
                    required = True
                    continue
                text, done = self._check(code)
                if done is not None:
                    return done
                last = text
                messages.append(ChatMessage(role="user", content=text))
                continue
            for call in resp.tool_calls:
                if call.error is not None:
                    text, done = (
                        f"error: your call to {call.name or '?'} could not be read: {call.error}. Send it again with valid JSON arguments.",
                        None,
                    )
                else:
                    text, done = self._tool(call)
                self._emit("tool", tool=call.name, ok=call.error is None, result=text[:1000])
                messages.append(ChatMessage(role="tool", content=text, tool_call_id=call.id, name=call.name or "unknown"))
                if done is not None:
                    return done
                last = text
        return self._result(False, reason=f"no proof after {self.cfg.prover.agent_turns} turns; last: {last[:300]}")

