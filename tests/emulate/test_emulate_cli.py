"""``wsb-emulate``: a built-in provider's API from a corpus through the embedded engine (with latency and a
window rate limit), and a scripted OpenAI-compatible model from a file of turns; the first line printed is the
base URL, the next ones export what points the plugin at it; --detach returns once it serves."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import httpx
import pytest

from conftest import REPO, TINY_CORPUS
from pytest_websearchbench.emulate.model import ScriptedModel, from_turns, load_turns
from pytest_websearchbench.emulate.server import Emulator
from pytest_websearchbench.engine.index import SearchIndex
from pytest_websearchbench.providers import ProviderContext, ProviderRegistry, register_builtin_providers

ENV = {**os.environ, "PYTHONPATH": str(REPO)}


def emulate(*args: str, cwd=None) -> tuple[str, dict[str, str]]:
    """Start ``wsb-emulate … --detach``; its first line and its exports (the server is stopped by the caller)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest_websearchbench.emulate", *args, "--detach"],
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
        cwd=cwd,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    exports = dict(line.removeprefix("export ").split("=", 1) for line in lines[1:] if line.startswith("export "))
    return lines[0], exports


@pytest.fixture
def stop():
    pids = []
    yield pids.append
    for pid in pids:
        os.kill(pid, signal.SIGTERM)


def provider(name: str, environ: dict[str, str]):
    registry = ProviderRegistry()
    register_builtin_providers(registry)
    context = ProviderContext(name=name, environ=environ, ini=lambda key: "", calls_out=True)
    made = registry.entry(name).factory(context)
    made.name = name
    return made


def test_a_provider_is_served_from_the_bundled_corpus_and_its_adapter_reads_it(stop):
    base_url, exports = emulate("provider", "serper")
    stop(int(exports["WSB_EMULATE_PID"]))
    assert base_url == exports["WSB_SERPER_BASE_URL"] and base_url.startswith("http://127.0.0.1:")
    assert base_url.endswith("/serper") and exports["SERPER_API_KEY"]
    hits = provider("serper", exports).search("Quillon ServiceDesk changelog", 5)
    assert len(hits) == 5 and hits[0].url.startswith("https://developer.quillon.example/")
    index = SearchIndex.from_jsonl(REPO / "suites" / "sample-web" / "corpus.jsonl")
    assert [h.url for h in hits] == [r["url"] for r in index.search("Quillon ServiceDesk changelog", 5)]


@pytest.mark.e2e  # a rate window and answer delays waited out in real time
def test_a_rate_limit_answers_429_with_retry_after_and_latency_delays_answers(stop, tmp_path):
    corpus = tmp_path / "pages.jsonl"
    corpus.write_text("".join(json.dumps(page) + "\n" for page in TINY_CORPUS), "utf-8")
    base_url, exports = emulate(
        "provider", "tavily,jina", "--corpus", str(corpus), "--latency", "0.2", "--per-second", "2"
    )
    stop(int(exports["WSB_EMULATE_PID"]))
    assert set(exports) >= {"WSB_TAVILY_BASE_URL", "TAVILY_API_KEY", "WSB_JINA_BASE_URL", "WSB_JINA_READER_BASE_URL"}
    assert exports["WSB_TAVILY_BASE_URL"] == base_url + "/tavily"
    search = exports["WSB_TAVILY_BASE_URL"] + "/search"
    with httpx.Client(headers={"Authorization": "Bearer any-key"}) as client:
        started = time.monotonic()
        answers = [client.post(search, json={"query": "green tea"}) for _ in range(3)]
        first = answers[0]
        assert time.monotonic() - started >= 0.4  # two admitted answers, each after 0.2 s
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert answers[2].headers["retry-after"] == "1"
        assert [r["url"] for r in first.json()["results"]] == [
            r["url"] for r in SearchIndex(TINY_CORPUS).search("green tea", 5)
        ]
        time.sleep(1.05)
        assert client.post(search, json={"query": "green tea"}).status_code == 200
        assert client.post(search, json={"query": "green tea"}, headers={"Authorization": ""}).status_code == 401


def test_the_model_answers_each_conversation_from_its_script(stop, tmp_path):
    turns = tmp_path / "turns.jsonl"
    turns.write_text(
        json.dumps(
            {
                "match": "tea",
                "turns": [
                    {"tool_calls": [{"name": "web_search", "arguments": {"query": "tea"}}]},
                    {"content": "Brew at 75 degrees."},
                ],
            }
        )
        + "\n"
        + json.dumps({"turns": [{"content": "I cannot tell."}]})
        + "\n",
        "utf-8",
    )
    base_url, exports = emulate("model", "--turns", str(turns))
    stop(int(exports["WSB_EMULATE_PID"]))
    assert base_url == exports["OPENAI_BASE_URL"] and base_url.endswith("/v1") and exports["OPENAI_API_KEY"]
    user = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "how hot for green tea?"}]
    with httpx.Client() as client:
        chat = client.post(f"{base_url}/chat/completions", json={"model": "m", "messages": user}).json()
        call = chat["choices"][0]["message"]["tool_calls"][0]["function"]
        assert call == {"name": "web_search", "arguments": '{"query": "tea"}'}
        later = user + [chat["choices"][0]["message"], {"role": "tool", "tool_call_id": "call_1_0", "content": "{}"}]
        chat = client.post(f"{base_url}/chat/completions", json={"model": "m", "messages": later}).json()
        assert chat["choices"][0]["message"]["content"] == "Brew at 75 degrees."
        other = client.post(
            f"{base_url}/responses",
            json={
                "model": "m",
                "input": [{"role": "system", "content": "x"}, {"role": "user", "content": "bike tyres?"}],
            },
        ).json()
        assert other["output"][0]["content"][0]["text"] == "I cannot tell."


def test_a_model_with_a_tokens_per_minute_limit_states_its_bucket_and_refuses_what_it_cannot_pay(stop, tmp_path):
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"content": "ok"}) + "\n", "utf-8")
    base_url, exports = emulate("model", "--turns", str(turns), "--tokens-per-minute", "6000")
    stop(int(exports["WSB_EMULATE_PID"]))
    body = {"model": "m", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 2500}
    with httpx.Client() as client:
        answers = [client.post(f"{base_url}/chat/completions", json=body) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]  # each charged its prompt and its cap of 2,500
    left = [int(a.headers["x-ratelimit-remaining-tokens"]) for a in answers]
    assert answers[0].headers["x-ratelimit-limit-tokens"] == "6000" and 6000 - 2600 < left[0] < 6000 - 2500
    assert left[1] < left[0] - 2500 and left[2] < 2600  # the refused one is not charged: what is left, refilled
    assert answers[2].headers["x-ratelimit-reset-tokens"].endswith("ms")
    assert "Rate limit reached on tokens" in answers[2].json()["error"]["message"]


def test_a_file_of_replies_alone_is_one_script_and_a_bad_file_names_its_line(tmp_path):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps([{"content": "one"}, {"content": "two"}]), "utf-8")
    with ScriptedModel(from_turns(load_turns(replies))) as base_url:
        answers = []
        messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
        for _ in range(3):
            reply = httpx.post(f"{base_url}/chat/completions", json={"model": "m", "messages": messages}).json()
            answers.append(reply["choices"][0]["message"]["content"])
            messages = messages + [reply["choices"][0]["message"], {"role": "user", "content": "more"}]
    assert answers == ["one", "two", "two"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"content": "fine"}\n{"text": "no"}\n', "utf-8")
    with pytest.raises(ValueError, match=r"bad.jsonl:2: a reply needs 'content', 'tool_calls' or 'status'"):
        load_turns(bad)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["provider", "acme"], "unknown provider acme; providers: brave, exa"),
        (["provider", "serper", "--per-second", "0"], "is not a whole number of at least 1"),
        (["provider", "serper", "--corpus", "missing.jsonl"], "no corpus at missing.jsonl"),
        (["model", "--turns", "missing.jsonl"], "missing.jsonl"),
        (["model", "--turns", "t.jsonl", "--tokens-per-minute", "0"], "is not a whole number of at least 1"),
    ],
)
def test_bad_arguments_exit_2_in_one_line(args, message, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "pytest_websearchbench.emulate", *args, "--detach"],
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and message in done.stderr and done.stdout == ""


def test_the_emulator_serves_an_index_in_process():
    index = SearchIndex(TINY_CORPUS)
    em = Emulator(index=index, any_key=True).start()
    try:
        answer = httpx.post(
            em.base_url("exa") + "/search",
            headers={"x-api-key": "k"},
            json={"query": "bike tyre pressure", "numResults": 2},
        ).json()
        assert answer["results"][0]["url"] == "https://bike.example/tyre-pressure"
        assert answer["results"][0]["highlights"][0] == index.search("bike tyre pressure", 1)[0]["snippet"]
    finally:
        em.stop()
