"""Deadlines, not read timeouts (core/deadline.py): a server that sends its headers and then drips its body a
byte at a time is cut off at the attempt's timeout — connect, headers and body together — for a provider, a
model, and an item of a live run; the error names the deadline and the setting that gives it."""

from __future__ import annotations

import time

import pytest
from emulator.testing import make_provider

from pytest_websearchbench.core.deadline import attempt_deadline, deadline_client
from pytest_websearchbench.core.exceptions import ProviderError
from pytest_websearchbench.core.policies import RetryPolicy
from pytest_websearchbench.emulate.model import ScriptedModel, scripted
from pytest_websearchbench.providers.model_client import ModelClient
from pytest_websearchbench.providers.retry import HttpOptions

QUERY = "green tea brewing temperature"


@pytest.mark.e2e  # two 1 s deadlines waited out in real time
def test_a_dripping_provider_ends_at_the_deadline_of_each_attempt(emulator):
    # a byte every 0.2 s: every read is answered well within the 1 s timeout, the body never within it
    emulator.fault("serper", "drip", times=2, drip_interval=0.2)
    http = HttpOptions(timeout=1.0, retry=RetryPolicy(retries=1, backoff=0.01))
    provider = make_provider("serper", emulator.env("serper"), http=http)
    started = time.monotonic()
    with pytest.raises(ProviderError) as caught:
        provider.search(QUERY, 3)
    took = time.monotonic() - started
    assert 2.0 <= took < 3.5, took  # two attempts of 1 s each, and a little backoff
    assert caught.value.kind == "timeout" and caught.value.attempts == 2
    assert "no complete answer within 1 s (--wsb-timeout) on POST /search" in str(caught.value)
    assert "gave up after 2 attempts" in str(caught.value)


def test_a_drip_then_a_whole_answer_is_retried_into_a_result(emulator):
    emulator.fault("serper", "drip", drip_interval=0.2)
    http = HttpOptions(timeout=1.0, retry=RetryPolicy(retries=1, backoff=0.01))
    provider = make_provider("serper", emulator.env("serper"), http=http)
    assert len(provider.search(QUERY, 2)) == 2
    assert provider.calls[-1].attempts == 2


@pytest.mark.e2e  # two 1 s deadlines waited out in real time
def test_a_dripping_model_ends_at_the_deadline_of_each_attempt():
    with ScriptedModel(scripted([{"content": "an answer", "drip": 0.2}] * 2)) as url:
        client = ModelClient(url, "k", timeout=1.0, retry=RetryPolicy(retries=1, backoff=0.01))
        started = time.monotonic()
        with pytest.raises(ProviderError) as caught:
            client.ask("/chat/completions", {"model": "m", "messages": [{"role": "system", "content": "s"}] * 2})
        took = time.monotonic() - started
        client.close()
    assert 2.0 <= took < 3.5, took
    assert caught.value.kind == "timeout"
    assert "model: no complete answer within 1 s (a model call's timeout) (gave up after 2 attempts)" in str(
        caught.value
    )


def test_outside_an_attempt_and_within_its_time_nothing_changes(emulator):
    client = deadline_client(timeout=5.0)
    url = emulator.base_url("serper") + "/search"
    headers = {"X-API-KEY": "test-key-serper"}
    # no attempt running: no deadline (the 0.2 s drip of 300-odd bytes is slower than nothing)
    assert client.post(url, json={"q": QUERY}, headers=headers).status_code == 200
    with attempt_deadline(5.0):
        assert client.post(url, json={"q": QUERY}, headers=headers).status_code == 200
    client.close()
