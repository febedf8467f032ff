"""The OpenAI client's reading of HTTP errors (``prover.llm.http_errors``), without a server:
which refusals match a message and in what order, and the retry policy's waits."""

from prover.llm.http_errors import REFUSALS, RETRY_STATUS, RetryPolicy, refusals


def outcomes(status: int, message: str) -> list[str]:
    return [r.outcome for r, _ in refusals(status, message)]


def test_refusals_match_by_status_and_message_in_table_order():
    vllm_tools = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'
    assert outcomes(400, vllm_tools) == ["text_tools"]
    assert outcomes(400, "response_format json_schema is not supported; tool_choice ignored") == ["text_tools", "no_format"]
    assert outcomes(404, "The model `m` does not exist.") == ["not_served"]
    assert outcomes(400, "The model `m` does not exist.") == []  # a 404 refusal only
    assert outcomes(400, "some other complaint") == []
    assert [r.outcome for r in REFUSALS] == ["text_tools", "no_format", "one_sample", "not_served", "context_length", "prompt_tokens"]


def test_the_first_context_pattern_that_matches_gives_the_length():
    both = "This model's maximum context length is 4096 tokens (max_model_len=8192)"
    ((refusal, m),) = list(refusals(400, both))
    assert refusal.outcome == "context_length" and m.group(1) == "4096"
    ((_, m),) = list(refusals(400, "Your prompt contains at least 5000 input tokens"))
    assert m.group(1) == "5000"


def test_retry_policy_prefers_retry_after_then_backs_off_and_stops_at_the_limit():
    policy = RetryPolicy(max_retries=2, backoff_s=2.0)
    calls = []

    def jitter() -> float:
        calls.append(1)
        return 0.5

    assert policy.wait(0, 0.25, jitter) == 0.25 and calls == []  # Retry-After: no jitter drawn
    assert policy.wait(0, None, jitter) == 2.0
    assert policy.wait(1, None, jitter) == 4.0
    assert policy.wait(2, None, jitter) is None and len(calls) == 2
    assert 429 in RETRY_STATUS and 400 not in RETRY_STATUS and 404 not in RETRY_STATUS
