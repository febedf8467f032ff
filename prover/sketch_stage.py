"""The sketch stage: ask the model, parse (``sketch.parse``), compile-check the skeleton with
holes, feed the errors back.

A sketch passes when the skeleton (lemmas with holes, then the theorem with the model's
main proof) compiles with no error and the theorem's proof has no hole or open goal.
``make_sketch`` returns a ``Sketch`` either way; ``checked`` says whether it passed, and
``errors`` holds the last problems when it did not.
"""

from __future__ import annotations

from sketch.graph import dependency_graph, edges, needed_lemmas
from sketch.parse import SketchParseError, parse_sketch, skeleton

from . import prompts
from .chat import call_model
from .llm.base import ChatMessage
from .records import Sketch


def _error_report(code: str, errors: tuple[str, ...]) -> str:
    lines = code.splitlines()
    out = []
    for e in errors[:6]:
        text = e
        if e.startswith("line "):
            try:
                n = int(e.split(":", 1)[0].split()[1])
                text = f"{e}\n    at: {lines[n - 1].strip()}"
            except (ValueError, IndexError):
                pass
        out.append("- " + text)
    return "\n".join(out)


def make_sketch(problem, informal: str, llm, ws, config, trace, budget, *, round: int = 0, failed: tuple[str, ...] = ()) -> Sketch:
    values = dict(ws.lang.prompt_values)
    feedback = prompts.render("sketch_feedback", failed="\n".join(f"- {f}" for f in failed)) if failed else ""
    user = prompts.render(
        "sketch",
        theorem_name=problem.theorem_name,
        context=ws.env_header.strip() or "(nothing)",
        declaration=problem.declaration.strip(),
        informal=informal.strip() or "(none given: find the proof yourself)",
        feedback=feedback,
        **values,
    )
    messages = [ChatMessage(role="user", content=user)]
    errors: tuple[str, ...] = ("no answer from the model",)
    text = ""
    for repair in range(config.prover.sketch_repairs + 1):
        resp = call_model(llm, messages, budget=budget, trace=trace, problem=problem.name, stage="sketch")
        if not resp.ok:
            errors = (f"model error: {resp.error}",)
            trace.emit("sketch_error", problem=problem.name, round=round, repair=repair, errors=list(errors))
            if (resp.error or "").startswith(("connection failed", "no time left")):
                break  # the endpoint is down, or this round's time is spent: repairs cannot help
            continue
        messages.append(resp.as_message())
        try:
            parsed = parse_sketch(resp.text, ws.lang, problem.theorem_name)
            g = dependency_graph(parsed.lemmas, problem.theorem_name, parsed.main_proof)
            needed = needed_lemmas(g, problem.theorem_name)
        except (SketchParseError, ValueError) as e:
            errors = (str(e),)
            trace.emit("sketch_error", problem=problem.name, round=round, repair=repair, errors=list(errors))
            messages.append(
                ChatMessage(
                    role="user", content=prompts.render("sketch_repair", errors=f"- {e}", theorem_name=problem.theorem_name, **values)
                )
            )
            continue
        lemmas = tuple(lem for lem in parsed.lemmas if lem.name in needed)
        text = skeleton(ws.lang, lemmas, problem.declaration, parsed.main_proof)
        res = ws.check(text, attempt=True, final_decl=parsed.main_proof)
        if res.complete:
            sk = Sketch(
                problem=problem.name,
                round=round,
                lemmas=lemmas,
                main_proof=parsed.main_proof,
                edges=edges(g),
                text=text,
                checked=True,
                repairs=repair,
            )
            trace.emit(
                "sketch",
                problem=problem.name,
                round=round,
                repairs=repair,
                lemmas=[lem.name for lem in lemmas],
                edges=[list(e) for e in sk.edges],
                record=sk,
            )
            return sk
        errors = res.errors or (res.feedback(),)
        trace.emit("sketch_error", problem=problem.name, round=round, repair=repair, errors=list(errors))
        report = _error_report(text, res.errors) if res.errors else res.feedback()
        messages.append(
            ChatMessage(role="user", content=prompts.render("sketch_repair", errors=report, theorem_name=problem.theorem_name, **values))
        )
    return Sketch(
        problem=problem.name,
        round=round,
        lemmas=(),
        main_proof="",
        text=text,
        checked=False,
        errors=errors,
        repairs=config.prover.sketch_repairs,
    )
