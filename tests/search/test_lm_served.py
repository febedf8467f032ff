"""A served tactic model (``OpenAITacticModel``, a card with an ``endpoint``) over real HTTP against
a stand-in of vLLM (``served_standin.py``) that refuses and answers as a real vLLM 0.32 server was
seen to: the request it sends, how choices cut at the newline or at ``max_tokens`` are read, a
recorded response of the real server, the served name checked on load, an absent server, and a
failed request counted by the search's source. The real server is in ``tests/llm``."""

import json
from pathlib import Path

import openai
import pytest
from served_standin import Standin, serving  # tests/search is on sys.path (rootless import)

from prover.search.lm_card import TacticModelCard, write_card
from prover.search.lm_prompt import tactic_prompt
from prover.search.lm_source import Completion, LmSource, LmUnavailable, OpenAITacticModel, Proposal, load_model

ROOT = "  ============================\n  NoDup (seq 3 40)"
RECORDED = Path(__file__).parent / "data" / "vllm_completion.json"
SCRIPT = [  # what the model writes, token by token, past the newline the request stops at
    [(" lia", -0.1), (".", -0.2), ("\n", -0.05), ("Qed", -0.3)],
    [(" auto", -0.5), (".", -0.5), ("\n", -0.1)],
    [(" lia", -0.3), (".", -0.2), ("\n", -0.05)],  # the same tactic, less likely
    [(" intros", -0.1), (" n", -0.2), (" m", -0.2), (" p", -0.2)],  # cut by max_tokens: no period
]


def _card(tmp_path: Path, standin: Standin, name: str, **kw) -> str:
    write_card(tmp_path / name, TacticModelCard(base=name, endpoint=standin.url, **kw))
    return str(tmp_path / name)


def test_a_served_model_is_asked_for_k_samples_stopped_at_the_newline(tmp_path):
    with serving(Standin(served=("smollm2", "tactic"), script=SCRIPT)) as standin:
        model = load_model(_card(tmp_path, standin, "tactic", max_new_tokens=3))
        done = model.complete(tactic_prompt(ROOT), 4)
        props = model.propose(tactic_prompt(ROOT), 4)
        huge = "  ============================\n  " + " + ".join(["n"] * 20000) + " = 0"
        assert model.complete(tactic_prompt(huge), 1)  # the prompt is clipped: it fits a 1024-token context
    assert isinstance(model, OpenAITacticModel) and model.model == "tactic"
    assert standin.requests[0] == {"model": "tactic", "prompt": tactic_prompt(ROOT), "n": 4, "max_tokens": 3, "temperature": 1.0,
                                   "logprobs": 0, "stop": ["\n"]}
    # the newline is not in the text, but its token and log-probability are counted
    assert done[0] == Completion(" lia.", pytest.approx(-0.35), 3) and " intros n m" in [c.text for c in done]
    assert props == [Proposal("lia.", pytest.approx(-0.35), 3), Proposal("auto.", pytest.approx(-1.1), 3)]


def test_a_recorded_response_of_the_real_server_is_read_whole():
    recorded = json.loads(RECORDED.read_text())
    with serving(Standin(served=("smollm2", "tactic"), replay=recorded["response"])) as standin:
        client = openai.OpenAI(base_url=standin.url, api_key="EMPTY", max_retries=0)
        model = OpenAITacticModel.connect(TacticModelCard(base="tactic", endpoint=standin.url), client=client)
        req = recorded["request"]
        done = model.complete(req["prompt"], req["n"])
    assert standin.requests[-1] == {**req, "max_tokens": 48}
    choices = recorded["response"]["choices"]
    assert len(done) == len(choices) and all("\n" not in c.text for c in done)
    for choice in choices:
        lp = choice["logprobs"]
        assert lp["tokens"][-1] == "\n" and choice["finish_reason"] == "stop"
        assert Completion(choice["text"], pytest.approx(sum(lp["token_logprobs"])), len(lp["tokens"])) in done
    assert [c.logprob for c in done] == sorted((c.logprob for c in done), reverse=True)


def test_the_standin_refuses_what_the_real_server_refused():
    with serving(Standin(served=("smollm2", "tactic"), script=SCRIPT)) as standin:
        client = openai.OpenAI(base_url=standin.url, api_key="EMPTY", max_retries=0)
        ok = {"model": "tactic", "prompt": "x", "n": 2, "max_tokens": 4, "logprobs": 0, "stop": ["\n"]}
        assert len(client.completions.create(**ok).choices) == 2
        with pytest.raises(openai.NotFoundError, match="does not exist"):
            client.completions.create(**{**ok, "model": "nope"})
        for bad in ({"n": 0}, {"logprobs": 21}, {"logprobs": -1}, {"max_tokens": 0}, {"max_tokens": 1025}, {"prompt": "x" * 3600}):
            with pytest.raises(openai.BadRequestError):
                client.completions.create(**{**ok, **bad})


def test_a_card_must_name_a_served_model_and_a_server_that_answers(tmp_path):
    with serving(Standin(served=("smollm2", "tactic"))) as standin:
        with pytest.raises(LmUnavailable, match=r"serves 'smollm2', 'tactic', not '/models/smollm2'"):
            load_model(_served_as(tmp_path, standin.url, "/models/smollm2"))
        assert standin.requests == []  # the name is checked on the model list, before any completion
    with pytest.raises(LmUnavailable, match="does not answer its model list"):
        load_model(_served_as(tmp_path / "gone", standin.url, "tactic"))  # the stand-in has stopped
    with pytest.raises(ValueError, match="takes no adapter"):
        TacticModelCard(base="tactic", endpoint=standin.url, adapter="adapter")


def _served_as(folder: Path, url: str, name: str) -> str:
    write_card(folder / "card", TacticModelCard(base=name, endpoint=url))
    return str(folder / "card")


def test_a_refused_request_is_counted_and_the_goal_gets_no_proposals(tmp_path):
    with serving(Standin(served=("tactic",), script=SCRIPT)) as standin:
        model = load_model(_card(tmp_path, standin, "tactic"))
        src = LmSource(model, k=0)  # n=0: refused with HTTP 400
        assert src.candidates(ROOT, 0, set()) == [] and src.failed == 1 and src.calls == 1
        src = LmSource(model, k=2)
        assert [c.tactic for c in src.candidates(ROOT, 0, set())] == ["lia", "auto"] and src.failed == 0
