"""A harness arm end to end: ``--provider=exa_auto`` against a loopback Exa double (a test double
answering ``/search`` with highlights and ``/contents`` with text) and the scripted model; the
episode is the faithful profile, records, and replays with neither server nor keys."""

from __future__ import annotations

import json

import pytest
from code_support import CORPUS, ROW, write_rows

from pytest_websearchbench.core.loopback import LoopbackServer, QuietHandler
from pytest_websearchbench.emulate.model import ScriptedModel, search_then_answer

FAST = ("-p", "no:hypothesispytest")


class ExaDouble:
    """TEST DOUBLE of Exa's search and contents endpoints over ``CORPUS`` (a word-overlap ranking)."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict]] = []

    def answer(self, path: str, body: dict) -> dict:
        self.requests.append((path, body))
        if path == "/search":
            words = set(body["query"].lower().split())
            ranked = sorted(CORPUS, key=lambda page: -len(words & set(page["text"].lower().split())))
            rows = [{"url": p["url"], "title": p["title"], "highlights": p["text"].split(": ")} for p in ranked]
            return {"requestId": "r1", "results": (rows[:1] + rows)[: body["numResults"]]}  # a duplicate URL first
        page = next((p for p in CORPUS if p["url"] == body["urls"][0]), None)
        return {
            "results": [{"url": page["url"], "title": page["title"], "text": page["text"]}] if page else [],
            "statuses": [{"id": body["urls"][0], "status": "success" if page else "error"}],
        }

    def __enter__(self) -> str:
        double = self

        class Handler(QuietHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                data = json.dumps(double.answer(self.path, body)).encode()
                self.send_response(200 if self.headers.get("x-api-key") == "exa-secret" else 401)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = LoopbackServer(Handler, name="exa-double").start()
        return self.server.url

    def __exit__(self, *exc) -> None:
        self.server.close()


def test_an_arm_runs_the_faithful_profile_records_and_replays(pytester, monkeypatch):
    write_rows(pytester.path / "eval.jsonl", [{}])
    args = (*FAST, "--suite", "eval.jsonl", "--provider=exa_auto", "--wsb-mode=agent", "--wsb-board=search-fetch")
    exa = ExaDouble()
    model = ScriptedModel(search_then_answer({ROW["ticket"]: ROW["gold_code"]}, fetch=True))
    with exa as exa_url, model as model_url:
        monkeypatch.setenv("EXA_API_KEY", "exa-secret")
        monkeypatch.setenv("WSB_EXA_AUTO_BASE_URL", exa_url)
        monkeypatch.setenv("OPENAI_BASE_URL", model_url)
        recorded = pytester.runpytest(*args)
    recorded.assert_outcomes(passed=1)
    recorded.stdout.fnmatch_lines(["*leaderboard*faithful*", "*0 replayed · 1 recorded · 0 live*"])
    assert exa.requests[0] == (
        "/search",
        {"query": ROW["ticket"].split(". ")[0], "type": "auto", "numResults": 8, "contents": {"highlights": True}},
    )
    assert exa.requests[1] == ("/contents", {"urls": ["https://docs.acme.example/v2/tickets/resolve"], "text": True})
    search_result = model.requests[1].tool_results[0]
    assert search_result["backend"] == "exa_auto" and len(search_result["hits"]) == len(CORPUS)  # deduplicated
    assert "\n" in search_result["hits"][0]["snippet"]  # highlights on lines
    cassette = pytester.path / "cassettes" / "eval" / "exa_auto" / "agent-gpt-5.6-sol-search-fetch" / "acme-001.yaml"
    assert "exa-secret" not in cassette.read_text() and "https://api.exa.ai/search" in cassette.read_text()

    for name in ("EXA_API_KEY", "WSB_EXA_AUTO_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name)
    pytester.runpytest(*args, "--wsb-record-mode=none").assert_outcomes(passed=1)


def test_an_arm_off_its_board_is_refused_in_agent_mode(pytester, monkeypatch):
    write_rows(pytester.path / "eval.jsonl", [{}])
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    monkeypatch.setenv("EXA_API_KEY", "exa-x")
    result = pytester.runpytest(*FAST, "--suite", "eval.jsonl", "--provider=exa_auto", "--wsb-mode=agent")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*--provider=exa_auto: the harness runs this arm on the search-fetch board only; "
            "use --wsb-board=search-fetch*"
        ]
    )
