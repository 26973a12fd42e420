"""Every dollar, and nothing recorded that hides a reason (issue 48, parts 5 and 7), in agent mode against
loopback doubles: the scripted model (its answers report their usage) and the provider emulator (which can
fail). A model call is priced from its usage at the price table or --wsb-price NAME=IN/OUT; --wsb-max-cost caps
providers and models together; an item whose search provider failed during its episode is an error with that
reason, and no cassette of it is kept, so a later ``once`` run records it."""

from __future__ import annotations

import json
import re

import pytest
from code_support import ROWS, tiny_code_suite

from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.policies import parse_prices
from pytest_websearchbench.emulate.model import ScriptedModel, search_then_answer
from pytest_websearchbench.providers.pricing import TokenPrices, model_prices, reply_tokens

FAST = ("-p", "no:hypothesispytest")
CODES = {row["ticket"]: row["gold_code"] for row in ROWS}
PER_MILLION = 1.0  # the scripted model's price in these tests, USD per 1M tokens in and out


def _agent(pytester, monkeypatch, url, *args):
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    return pytester.runpytest(*FAST, "--suite", str(tiny_code_suite(pytester.path)), "--wsb-mode=agent", *args)


def _live_line(result, start: str) -> str:
    """The live line that begins with ``start``, its lines (folded between its parts, two columns deeper)
    joined again."""
    lines = result.outlines
    at = next(i for i, line in enumerate(lines) if line.startswith(start))
    end = next((i for i in range(at + 1, len(lines)) if not lines[i].startswith("  ")), len(lines))
    return " ".join(line.strip() for line in lines[at:end])


def test_a_code_agent_run_stops_within_its_cap_with_the_models_spend_counted(pytester, monkeypatch):
    results = pytester.path / "r.json"
    cap = 0.01
    double = ScriptedModel(search_then_answer(CODES))
    with double as url:
        result = _agent(
            pytester,
            monkeypatch,
            url,
            "--wsb-repeat=10",
            "--wsb-max-turns=2",
            f"--wsb-price=gpt-5.6-sol={PER_MILLION:g}/{PER_MILLION:g}",
            f"--wsb-max-cost={cap}",
            f"--wsb-json={results}",
        )
    # what the model was paid for, from its own answers' usage: within 10 % of the cap, and most of it used
    spent = sum(
        (reply["usage"]["input_tokens"] + reply["usage"]["output_tokens"]) * PER_MILLION / 1e6
        for reply in double.replies
    )
    assert cap / 2 < spent <= cap * 1.1, spent
    line = _live_line(result, "live: 30/30 items")
    shown = re.search(r"models (\d+\.\d+) USD", line)
    assert shown and abs(float(shown.group(1)) - spent) < 1e-4, line
    assert "providers 0.0000 USD" in line  # the local engine is free: a price, not an unknown
    items = json.loads(results.read_text())["items"]
    refused = [item for item in items if item["error_kind"] == "max_cost"]
    assert refused and all("--wsb-max-cost 0.01 USD" in item["error"] for item in refused)
    result.stdout.fnmatch_lines(["live: spend * (providers 0.0000 USD, models * USD); --wsb-max-cost 0.01 USD"])


def test_a_dry_run_that_records_again_prices_the_tokens_the_model_used_when_last_recorded(pytester, monkeypatch):
    double = ScriptedModel(search_then_answer(CODES))
    with double as url:
        _agent(pytester, monkeypatch, url, "--wsb-max-turns=2").assert_outcomes(passed=len(CODES))
    used = [(r["usage"]["input_tokens"], r["usage"]["output_tokens"]) for r in double.replies]
    tokens_in, tokens_out = sum(u[0] for u in used), sum(u[1] for u in used)
    price = f"--wsb-price=gpt-5.6-sol={PER_MILLION:g}/{PER_MILLION:g}"
    dry = _agent(pytester, monkeypatch, url, "--wsb-max-turns=2", "--wsb-record-mode=rewrite", "--wsb-dry-run", price)
    assert dry.ret == pytest.ExitCode.OK
    line = _live_line(dry, "  local with model gpt-5.6-sol: ")
    cost = (tokens_in + tokens_out) * PER_MILLION / 1e6
    assert (
        f"recorded before: the {len(CODES)} items used {tokens_in:,} in + {tokens_out:,} out tokens, "
        f"{cost:.4f} USD at today's price"
    ) in line, line
    # once records only what has no cassette: nothing recorded before, nothing to show
    once = _agent(pytester, monkeypatch, url, "--wsb-record-mode=once", "--wsb-dry-run", price)
    assert "recorded before" not in once.stdout.str()


def test_a_model_without_a_known_price_is_spend_unknown_never_free(pytester, monkeypatch):
    with ScriptedModel(search_then_answer(CODES)) as url:
        result = _agent(pytester, monkeypatch, url, "--wsb-model=in-house-model", "-k", "acme-001")
    line = _live_line(result, "live: 1/1 items")
    assert "spend unknown (providers 0.0000 USD, models unknown (2 calls unpriced))" in line, line
    assert "0.0000 USD)" not in line.split("models")[1]
    # under a cap, such a model's items are not started: nothing could bound what they spend
    with ScriptedModel(search_then_answer(CODES)) as url:
        capped = _agent(pytester, monkeypatch, url, "--wsb-model=in-house-model", "--wsb-max-cost=1", "-k", "acme-002")
    capped.assert_outcomes(errors=1)
    capped.stdout.fnmatch_lines(
        [
            "*not run: model in-house-model has no known price, so --wsb-max-cost cannot bound its spend; give one "
            "with --wsb-price in-house-model=IN/OUT*"
        ]
    )


def test_an_item_whose_search_failed_during_its_episode_is_an_error_and_once_records_it_again(
    pytester, monkeypatch, emulator, env
):
    env("serper")
    cassette = pytester.path / "cassettes" / "eval" / "serper" / "agent-gpt-5.6-sol-search" / "acme-001.yaml"
    emulator.fault("serper", "500", times=1)  # the harness sends each search once: the agent sees the 500
    with ScriptedModel(search_then_answer(CODES)) as url:
        failed = _agent(pytester, monkeypatch, url, "--provider=serper", "-k", "acme-001")
    failed.assert_outcomes(errors=1)
    failed.stdout.fnmatch_lines(
        ["*eval/acme-001[[]serper[]]: serper: HTTP 500*; not recorded: the same command calls it again*"]
    )
    assert not cassette.exists()  # its partial episode hides the reason: not kept
    with ScriptedModel(search_then_answer(CODES)) as url:
        again = _agent(pytester, monkeypatch, url, "--provider=serper", "-k", "acme-001")
    assert again.parseoutcomes().get("errors", 0) == 0
    again.stdout.fnmatch_lines(["live: 1/1 items * recorded 1 · reused 0 *"])
    assert cassette.is_file()


# --------------------------------------------------------------------------- prices


def test_wsb_price_takes_providers_per_request_and_models_per_token():
    assert parse_prices("serper=1.0,tavily.fetch=1.6,gpt-4o=2.5/10,gpt-4.1=2/8") == {
        "serper": {"search": 1.0},
        "tavily": {"fetch": 1.6},
        "gpt-4o": {"input": 2.5, "output": 10.0},
        "gpt-4.1": {"input": 2.0, "output": 8.0},
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("gpt-4o=2.5/10/1", "should read NAME=USD or NAME.fetch=USD"),
        ("gpt-4o=2.5/ten", "'ten' in 'gpt-4o=2.5/ten' is not a number"),
        ("gpt-4o=-1/2", "a price cannot be negative"),
        ("serper.bogus=1", "NAME=IN/OUT (a model: USD per 1M input/output tokens, e.g. gpt-4o=2.5/10)"),
    ],
)
def test_a_bad_price_is_one_line_naming_the_grammar(text, message):
    with pytest.raises(ConfigurationError, match=re.escape(message)) as raised:
        parse_prices(text)
    assert "\n" not in str(raised.value)


def test_a_model_is_priced_by_its_name_its_snapshot_or_its_hosts_prefix_and_the_user_first():
    assert model_prices("gpt-4o") == TokenPrices(2.5, 10.0)
    assert model_prices("gpt-4o-2024-08-06") == TokenPrices(2.5, 10.0)
    assert model_prices("gpt-4o-mini-2024-07-18") == TokenPrices(0.15, 0.6)  # the longest name, not gpt-4o
    assert model_prices("openai/gpt-4o") == TokenPrices(2.5, 10.0)
    assert model_prices("gpt-4o", {"gpt-4o": {"input": 1.0, "output": 2.0}}) == TokenPrices(1.0, 2.0)
    assert model_prices("in-house-model") is None and model_prices("gpt-5.6-sol") is None
    assert TokenPrices(2.5, 10.0).cost(1_000_000, 100_000) == pytest.approx(3.5)


def test_usage_reads_in_either_apis_names():
    assert reply_tokens({"usage": {"input_tokens": 10, "output_tokens": 3}}) == (10, 3)
    assert reply_tokens({"usage": {"prompt_tokens": 10, "completion_tokens": 3}}) == (10, 3)
    assert reply_tokens({"usage": {"prompt_tokens": 10}}) is None and reply_tokens({}) is None


# --------------------------------------------------------------------------- the model client


def test_a_models_one_off_malformed_json_is_tried_again_and_each_answer_is_priced_from_its_usage():
    from pytest_websearchbench.core.loopback import LoopbackServer, QuietHandler
    from pytest_websearchbench.providers.model_client import ModelClient
    from pytest_websearchbench.providers.pricing import SpendMeter, metering

    good = {"output": [], "model": "gpt-4o-2024-08-06", "usage": {"input_tokens": 1000, "output_tokens": 100}}
    answers = [b'{"output": [', json.dumps(good).encode()]  # a gateway's cut answer, then the whole one

    class Handler(QuietHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = answers.pop(0)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with LoopbackServer(Handler) as server, metering(SpendMeter()) as meter:
        client = ModelClient(server.url)
        try:
            assert client.ask("/responses", {"model": "gpt-4o"}) == good
        finally:
            client.close()
    assert len(client.calls) == 2 and not answers
    # gpt-4o's list price: 2.5 USD per 1M input tokens, 10 per 1M output tokens
    assert meter.model_usd == pytest.approx((1000 * 2.5 + 100 * 10) / 1e6) and meter.model_calls == 1
    assert client.calls[-1].cost_usd == pytest.approx(meter.model_usd) and not meter.failures
