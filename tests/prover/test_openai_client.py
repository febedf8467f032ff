"""The openai-SDK client against a strict vLLM 0.32 stand-in (``vllm_standin``): real output
shapes (arguments that are not objects, truncated or unknown calls, empty content), servers
without tool parsing, small contexts, budgets, n samples, structured output, logprobs."""

import json
import time

from vllm_standin import Reply, VLLMStandIn, call

from prover.config import ModelConfig, SamplingConfig
from prover.llm.base import (
    ChatMessage,
    ToolCall,
    ToolSpec,
    parse_arguments,
    request_deadline,
    sample_many,
)
from prover.llm.openai_client import OpenAIChat

TOOL = ToolSpec(name="check_proof", description="check a proof", parameters={"type": "object", "properties": {"proof": {"type": "string"}}})
ASK = [ChatMessage(role="system", content="You prove lemmas."), ChatMessage(role="user", content="prove n + 0 = n")]


def client(server, *, max_tokens=4096, sleeps=None, **kw):
    cfg = ModelConfig(
        type="openai",
        model=server.model,
        endpoint=server.url,
        timeout_s=kw.pop("timeout_s", 10.0),
        backoff_s=kw.pop("backoff_s", 0.01),
        **kw,
    )
    sleep = sleeps.append if sleeps is not None else time.sleep
    return OpenAIChat(cfg, SamplingConfig(max_tokens=max_tokens, temperature=0.0), sleep=sleep, jitter=lambda: 0.5)


def test_default_max_tokens_fits_a_small_context():
    # the issue's failure: max_tokens=4096 on a 2048-token server answered 400 on every call
    with VLLMStandIn([Reply("n + 0 = n holds by simpl.")] * 2, max_model_len=2048) as s:
        c = client(s)
        r1, r2 = c.chat(ASK), c.chat(ASK)
    assert r1.ok and r2.ok and not s.rejected and s.models_calls == 1
    assert all(b["max_tokens"] <= 2048 for b in s.requests)


def test_context_learned_from_the_400_when_models_does_not_report_it():
    with VLLMStandIn([Reply("ok")] * 2, max_model_len=2048, report_len=False) as s:
        c = client(s)
        r = c.chat(ASK)
        again = c.chat(ASK)
    assert r.ok and again.ok and c.context_len == 2048
    assert len(s.rejected) == 1 and "cannot be greater than max_model_len=2048" in s.rejected[0][1]
    assert s.requests[-1]["max_tokens"] < 2048


def test_context_from_config_when_the_server_does_not_report_it():
    with VLLMStandIn([Reply("ok")], max_model_len=2048, report_len=False) as s:
        r = client(s, max_model_len=2048).chat(ASK)
    assert r.ok and not s.rejected


def test_long_history_is_trimmed_to_the_context():
    history = list(ASK)
    for k in range(40):  # ~40 turns of 400 characters: far past 2048 tokens
        history.append(ChatMessage(role="assistant", content=f"attempt {k}: " + "intros; simpl; lia. " * 20))
        history.append(ChatMessage(role="user", content="error: the proof does not compile " * 10))
    with VLLMStandIn([Reply("done")], max_model_len=2048) as s:
        r = client(s).chat(history)
    assert r.ok and not s.rejected, s.rejected
    sent = s.requests[0]["messages"]
    assert sent[0]["content"] == "You prove lemmas." and sent[1]["content"] == "prove n + 0 = n"
    assert "omitted" in sent[2]["content"] and sent[-1]["content"] == history[-1].content
    assert len(sent) < len(history)


def test_a_prompt_that_cannot_fit_is_a_value_without_a_request():
    huge = [ChatMessage(role="user", content="x " * 20000)]
    with VLLMStandIn([Reply("never")], max_model_len=2048) as s:
        r = client(s).chat(huge)
    assert not r.ok and "too long" in r.error and not s.requests


def test_underestimated_prompt_is_recounted_from_the_servers_400():
    # a tokenizer much denser than the client's guess: the server's count teaches the client
    with VLLMStandIn([Reply("ok")] * 3, max_model_len=600) as s:
        c = client(s)
        c.chars_per_token = 40.0  # a wildly optimistic estimate
        history = [ChatMessage(role="user", content="prove it")]
        history += [ChatMessage(role="assistant" if k % 2 else "user", content=f"{k} " + "word " * 100) for k in range(1, 8)]
        r = c.chat(history)
    assert r.ok, r.error
    assert any("maximum context length" in m for _, m in s.rejected) and c.chars_per_token < 40.0


def test_server_without_tool_parser_falls_back_to_text_tools_once():
    answer = 'Let me check.\n<tool_call>{"name": "check_proof", "arguments": {"proof": "auto."}}</tool_call>'
    with VLLMStandIn([Reply(answer), Reply(answer)], tool_parser=False) as s:
        c = client(s)
        r1 = c.chat(ASK, tools=[TOOL])
        r2 = c.chat(ASK, tools=[TOOL])
    assert r1.ok and r1.fallback and "text tools" in r1.fallback
    assert r2.ok and r2.fallback is None and not c.native_tools
    assert len(s.rejected) == 1 and '"auto" tool choice requires' in s.rejected[0][1]
    assert r1.tool_calls[0].arguments == {"proof": "auto."} and r1.text == "Let me check."
    ok_bodies = s.requests[1:]
    assert all("tools" not in b and "<tool_call>" in b["messages"][0]["content"] for b in ok_bodies)


def test_text_tool_mode_keeps_the_models_own_calls_in_the_history():
    own = ToolCall(id="c1", name="check_proof", arguments={"proof": "lia."}, raw_arguments='{"proof": "lia."}')
    history = [
        *ASK,
        ChatMessage(role="assistant", content="Trying lia.", tool_calls=(own,)),
        ChatMessage(role="tool", content="error: lia failed", tool_call_id="c1", name="check_proof"),
    ]
    with VLLMStandIn([Reply("next")], tool_parser=False) as s:
        r = client(s, native_tools=False).chat(history, tools=[TOOL])
    assert r.ok and not s.rejected
    sent = s.requests[0]["messages"]
    assert sent[2]["role"] == "assistant" and "Trying lia." in sent[2]["content"]
    assert '<tool_call>{"name": "check_proof", "arguments": {"proof": "lia."}}</tool_call>' in sent[2]["content"]
    assert sent[3]["role"] == "user" and "error: lia failed" in sent[3]["content"]


def test_invalid_arguments_are_never_echoed_back():
    # SmolLM2 behind vLLM really answered arguments "\"n\"" (a JSON string, not an object)
    bad = parse_arguments("check_proof", '"n"', "c1")
    cut = parse_arguments("check_proof", '{"proof": "intros; li', "c2")
    assert bad.error and cut.error
    history = [
        *ASK,
        ChatMessage(role="assistant", content="", tool_calls=(bad, cut)),
        ChatMessage(role="tool", content="error: could not be read", tool_call_id="c1", name="check_proof"),
        ChatMessage(role="tool", content="error: could not be read", tool_call_id="c2", name="check_proof"),
    ]
    with VLLMStandIn([Reply("again")], reject_bad_arguments=True) as s:
        r = client(s).chat(history, tools=[TOOL])
    assert r.ok and not s.rejected and s.coerced == 0
    sent = s.requests[0]["messages"]
    assert "tool_calls" not in sent[2] and '\\"n\\"' in sent[2]["content"] and "intros; li" in sent[2]["content"]
    assert [m["role"] for m in sent[3:]] == ["user", "user"]
    # the same history through the generic rendering (any backend) carries {} instead
    assert json.loads(history[2].openai()["tool_calls"][0]["function"]["arguments"]) == {}


def test_real_output_shapes_come_back_as_values():
    calls = [call("check_proof", '"\\"n\\""', "a"), call("check_proof", '{"proof": "intros; li', "b"), call("frobnicate", "{}", "c")]
    with VLLMStandIn([Reply("", tool_calls=calls), Reply("")]) as s:
        c = client(s)
        r = c.chat(ASK, tools=[TOOL])
        empty = c.chat(ASK, tools=[TOOL])
    a, b, u = r.tool_calls
    assert r.ok and r.finish_reason == "tool_calls"
    assert a.error == "arguments must be a JSON object" and "not valid JSON" in b.error
    assert u.name == "frobnicate" and u.arguments == {}  # unknown tools are the agent's business
    assert empty.ok and empty.text == "" and empty.tool_calls == ()


def test_truncated_answer_says_length():
    with VLLMStandIn([Reply("word " * 400)] * 2) as s:
        c = client(s, max_tokens=20)
        r = c.chat(ASK)
        small = c.chat(ASK, sampling=SamplingConfig(max_tokens=8))  # a small explicit limit is kept
    assert r.ok and r.finish_reason == "length" and r.usage.completion_tokens == 20
    assert s.requests[1]["max_tokens"] == 8 and small.usage.completion_tokens == 8


def test_no_request_outlives_the_deadline():
    with VLLMStandIn([Reply("warm")] + [Reply("slow", delay_s=8.0)] * 4) as s:
        c = client(s, timeout_s=300.0, max_retries=3)
        assert c.chat(ASK).ok  # warm: SDK import, client and /v1/models probe (seconds on a busy machine) stay outside the deadline
        t0 = time.monotonic()
        with request_deadline(time.monotonic() + 2.0):
            r = c.chat(ASK)
        elapsed = time.monotonic() - t0
    assert not r.ok and "timeout" in r.error
    assert r.error.startswith("no time left")  # cut by the deadline: not counted against the endpoint
    assert elapsed < 2.0 + 5.0  # the issue's bound: no request outlives the budget by more than 5 s
    assert len(s.requests) == 2  # the warm-up, then one request and no retry once the budget is spent


def test_nothing_is_sent_when_no_time_is_left():
    with VLLMStandIn([Reply("x")]) as s, request_deadline(time.monotonic() + 0.2):
        r = client(s).chat(ASK)
    assert not r.ok and "no time left" in r.error and not s.requests


def test_max_tokens_sized_to_the_time_left():
    with VLLMStandIn([Reply("word " * 60)] * 2, tokens_per_s=100.0) as s:
        c = client(s)
        first = c.chat(ASK)  # measures the rate
        with request_deadline(time.monotonic() + 3.0):
            second = c.chat(ASK)
    assert first.ok and second.ok and c.tokens_per_s is not None
    assert s.requests[1]["max_tokens"] <= int(c.tokens_per_s * 3.0) < 4096


def test_retries_back_off_with_jitter_and_honour_retry_after():
    sleeps = []
    script = [Reply(status=429, error="slow down", headers={"Retry-After": "0.25"}), Reply(status=503, error="busy"), Reply("fine")]
    with VLLMStandIn(script) as s:
        r = client(s, sleeps=sleeps, backoff_s=2.0, max_retries=3).chat(ASK)
    assert r.ok and r.text == "fine" and r.attempts == 3
    assert sleeps == [0.25, 4.0]  # Retry-After, then backoff 2 * 2**1 * (0.5 + jitter 0.5)


def test_server_errors_after_the_last_retry_are_a_value():
    with VLLMStandIn([Reply(status=500, error="boom")] * 3) as s:
        r = client(s, max_retries=2).chat(ASK)
    assert not r.ok and "HTTP 500" in r.error and r.attempts == 3


def test_chat_many_uses_n_and_response_format():
    schema = {"type": "json_schema", "json_schema": {"name": "j", "schema": {"type": "object"}}}
    with VLLMStandIn(lambda body: Reply('{"score": 1}')) as s:
        out = sample_many(client(s), ASK, n=3, response_format=schema)
    assert len(out) == 3 and all(r.ok and r.text == '{"score": 1}' for r in out)
    assert len(s.requests) == 1 and s.requests[0]["n"] == 3 and s.requests[0]["response_format"] == schema


_SCHEMA = {"type": "json_schema", "json_schema": {"name": "j", "schema": {"type": "object"}}}


def _refuses_response_format(body):
    """A server that answers 400 to any request carrying ``response_format`` (as vLLM builds without it do)."""
    if "response_format" in body:
        return Reply(status=400, error="response_format json_schema is not supported by this server")
    return Reply("plain")


def test_chat_many_drops_a_refused_response_format():
    script, schema = _refuses_response_format, _SCHEMA
    with VLLMStandIn(script) as s:
        out = client(s).chat_many(ASK, n=2, response_format=schema)
    assert [r.text for r in out] == ["plain", "plain"] and "response_format" not in s.requests[-1]


def test_a_refused_response_format_is_remembered_and_said_once():
    """The refusal costs one rejected request per client, not one per call; the response that
    saw it carries ``fallback`` and every response sent without the format says so."""

    script, schema = _refuses_response_format, _SCHEMA
    with VLLMStandIn(script) as s:
        c = client(s)
        first = c.chat_many(ASK, n=1, response_format=schema)[0]
        later = c.chat_many(ASK, n=1, response_format=schema)[0]
        plain = c.chat_many(ASK, n=1)[0]
    assert len(s.rejected) == 1 and not c.response_format_ok
    assert first.ok and first.format_dropped and first.fallback and "response_format" in first.fallback
    assert later.ok and later.format_dropped and later.fallback is None
    assert plain.ok and not plain.format_dropped and plain.fallback is None
    assert all("response_format" not in b for b in s.requests[1:])


def test_logprobs_and_token_ids():
    with VLLMStandIn([Reply("abcdefg")]) as s:
        c = client(s)
        r = c.chat(ASK, sampling=SamplingConfig(max_tokens=50, logprobs=True))
    assert r.logprobs is not None and r.token_ids is not None and len(r.token_ids) == len(r.logprobs) == r.usage.completion_tokens
    assert s.requests[0]["logprobs"] is True and s.requests[0]["return_token_ids"] is True
    assert r.token_ids[0] == 100


def test_standin_is_strict_about_what_vllm_rejects():
    # the double itself: these requests are answered 400 by vLLM 0.32, and by the stand-in
    import urllib.error
    import urllib.request

    def post(url, body):
        req = urllib.request.Request(
            url + "/chat/completions", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=5) as resp:
                return resp.status
        except urllib.error.HTTPError as e:
            return e.code

    base = {"model": "smollm2", "messages": [{"role": "user", "content": "hi"}]}
    with VLLMStandIn(lambda body: Reply("ok"), tool_parser=False, max_model_len=2048) as s:
        assert post(s.url, {**base, "max_tokens": 4096}) == 400
        assert post(s.url, {**base, "tools": [TOOL.openai()]}) == 400
        assert post(s.url, {**base, "tool_choice": "auto"}) == 400
        assert post(s.url, {**base, "messages": [{"role": "robot", "content": "hi"}]}) == 400
        assert post(s.url, {**base, "model": "other"}) == 404
        assert post(s.url, {**base, "max_tokens": 10}) == 200


def test_chat_many_failed_request_is_n_failures_from_one_request():
    with VLLMStandIn([Reply(status=400, error="bad request")]) as s:
        out = client(s).chat_many(ASK, n=4)
    assert len(out) == 4 and all(not r.ok for r in out) and len(s.requests) == 1


def test_endpoint_health_counts_requests_not_samples_nor_unsent_calls():
    from prover.budget import Budget
    from prover.chat import call_model_many
    from prover.config import BudgetConfig
    from prover.trace import Trace

    b = Budget(BudgetConfig(wall_s=60.0))
    with VLLMStandIn([Reply(status=400, error="bad request")]) as s:
        call_model_many(client(s), ASK, n=4, budget=b, trace=Trace(None), problem="p", stage="informal")
    assert b.llm_calls == 4 and b.llm_errors_in_row == 1
    b.charge_llm(0, 0, error="no time left in the budget")
    assert b.llm_errors_in_row == 1
    b.charge_llm(5, 5)
    assert b.llm_errors_in_row == 0


def test_a_model_the_server_does_not_serve_is_one_clear_error():
    """A wrong model name: ``/v1/models`` lists what the server has; the client says so and
    sends no chat request (the name is also caught from a 404 when the listing is unreadable)."""
    with VLLMStandIn([Reply("never sent")]) as s:
        cfg = ModelConfig(type="openai", model="nosuchmodel", endpoint=s.url, timeout_s=10.0)
        c = OpenAIChat(cfg, SamplingConfig(max_tokens=16))
        r1 = c.chat(ASK)
        r2 = c.chat(ASK)
    assert not r1.ok and r1.error.startswith("model not served") and "'nosuchmodel'" in r1.error and "smollm2" in r1.error
    assert r2.error == r1.error and not s.requests


def test_a_404_naming_the_model_is_remembered():
    with VLLMStandIn([Reply("never sent")], model="smollm2") as s:
        cfg = ModelConfig(type="openai", model="other", endpoint=s.url, timeout_s=10.0, max_retries=2)
        c = OpenAIChat(cfg, SamplingConfig(max_tokens=16))
        c._probed = True  # as when /v1/models could not be read
        r1 = c.chat(ASK)
        r2 = c.chat(ASK)
    assert r1.error.startswith("model not served") and "does not exist" in r1.error
    assert r2.error.startswith("model not served") and len(s.requests) == 1


def test_required_tool_choice_is_sent():
    with VLLMStandIn([Reply("", tool_calls=[call("check_proof", '{"proof": "lia."}')])]) as s:
        r = client(s).chat(ASK, tools=[TOOL], sampling=SamplingConfig(max_tokens=32, tool_choice="required"))
    assert r.ok and r.tool_calls[0].arguments == {"proof": "lia."}
    assert s.requests[0]["tool_choice"] == "required"


def test_a_timeout_at_the_requests_own_limit_says_timeout():
    with VLLMStandIn([Reply("slow", delay_s=3.0)] * 2) as s:
        r = client(s, timeout_s=1.0, max_retries=0).chat(ASK)
    assert not r.ok and r.error.startswith("timeout after 1s")
