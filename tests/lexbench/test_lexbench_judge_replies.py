"""A judge reply of the wrong shape is one unjudged verdict with the reason (as a failed call is), never
a crash of the judge: tool calls that are not a list of objects, text that is not text, token counts
that are not counts, a creation time past what a date can hold."""

from __future__ import annotations

import pytest

from pytest_websearchbench.lexbench.judge import ModelJudge
from pytest_websearchbench.lexbench.packets import Packet

PACKET = Packet("pk-1", "t1", "green tea", "how hot to brew green tea", "Brewing green tea", "75 degrees")


def _reply(message=None, **fields):
    return {
        "choices": [{"message": {"content": '{"grade": 2}', **(message or {})}}],
        "created": 1_700_000_000,
        **fields,
    }


@pytest.mark.parametrize(
    "reply, reason",
    [
        (_reply({"tool_calls": "grade"}), 'tool_calls is "grade", not a list of objects'),
        (_reply({"content": 5}), "content is 5, not text"),
        (_reply(usage={"prompt_tokens": "lots"}), 'usage.prompt_tokens is "lots", not a token count'),
        (_reply(created=10**14), "created 100000000000000 is not a time"),
    ],
)
def test_a_malformed_reply_is_unjudged_with_the_reason(reply, reason):
    asked = []
    verdict = ModelJudge("judge-x", lambda body: asked.append(body) or reply).grade(PACKET)
    assert verdict.grade is None and verdict.reason == f"model call failed: model: malformed reply: {reason}"
    assert len(asked) == 1 and verdict.receipt()["grader"] == "model:judge-x"


def test_a_well_formed_reply_is_graded():
    verdict = ModelJudge("judge-x", lambda body: _reply()).grade(PACKET)
    assert (verdict.grade, verdict.reason, verdict.graded_at) == (2, "", "2023-11-14T22:13:20+00:00")
