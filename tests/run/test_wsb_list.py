"""``pytest --wsb-list`` prints what the installation can run (the providers with what each does and its key's
variables, the WebBench agents, the bundled suites with their items, a plugin's providers and agents among
them) and exits 0 without running a test, as ``--markers`` does."""

from __future__ import annotations

import re

from conftest import REPO


def _section(lines: list[str], heading: str) -> list[str]:
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start + 1 : end]


def test_it_lists_providers_agents_and_bundled_suites_and_runs_nothing(pytester):
    pytester.makepyfile(test_never="def test_never():\n    raise AssertionError('ran')\n")
    result = pytester.runpytest("--wsb-list")
    assert result.ret == 0
    out = result.outlines
    assert "ran" not in result.stdout.str() and not any("passed" in line or "failed" in line for line in out)
    assert max(map(len, out)) <= 120
    providers = {line.split()[0]: line for line in _section(out, "providers (--provider=") if line[2] != " "}
    assert re.match(r"  serper +search +SERPER_API_KEY +Serper Google Search API$", providers["serper"])
    assert re.match(r"  tavily +search, fetch +TAVILY_API_KEY +Tavily search \+ extract$", providers["tavily"])
    assert re.match(r"  local +search, fetch +no key +embedded BM25 engine", providers["local"])
    assert re.match(
        r"  exa_auto +search, fetch +EXA_API_KEY +coding harness arm 'exa_auto', search-fetch board$",
        providers["exa_auto"],
    )
    agents = [line.split()[0] for line in _section(out, "WebBench agents (--wsb-agent=")]
    assert agents[:3] == ["oracle", "alt-oracle", "noop"] and agents[-2:] == ["model", "cmd:COMMAND"]
    suites = {line.split()[0]: line.split()[1:4] for line in _section(out, "bundled suites (--suite=NAME)")}
    counted = {
        "lexbench-sample": len((REPO / "suites/lexbench-sample/items.jsonl").read_text().splitlines()),
        "lexbench-sample-factual": len((REPO / "suites/lexbench-sample-factual/items.jsonl").read_text().splitlines()),
        "code-sample": len((REPO / "suites/code-sample/eval.jsonl").read_text().splitlines()),
        "webbench-sample": len(list((REPO / "suites/webbench-sample").glob("wb-*/task.toml"))),
    }
    assert suites == {
        name: [family, str(count), "items"]
        for name, family, count in [
            ("code-sample", "code", counted["code-sample"]),
            ("lexbench-sample", "lexbench", counted["lexbench-sample"]),
            ("lexbench-sample-factual", "lexbench", counted["lexbench-sample-factual"]),
            ("webbench-sample", "webbench", counted["webbench-sample"]),
        ]
    }


def test_a_plugins_providers_and_agents_are_listed(pytester):
    pytester.makeconftest(
        """
        from pytest_websearchbench.api import Provider

        class AcmeProvider(Provider):
            key_env = "ACME_API_KEY"

            @classmethod
            def from_context(cls, context):
                return cls()

            def search(self, query, k):
                return []

        def make_plain(context):
            return AcmeProvider()

        def pytest_websearchbench_add_providers(registry):
            registry.add("acme", AcmeProvider.from_context, help="Acme Search API (ACME_API_KEY)")
            registry.add("plain", make_plain, help="made by a function")

        def pytest_websearchbench_add_agents(registry):
            registry.add("my-agent", object, help="my browser agent")
        """
    )
    result = pytester.runpytest("--wsb-list")
    assert result.ret == 0
    result.stdout.re_match_lines(
        [
            r"  acme +search +ACME_API_KEY +Acme Search API$",
            r"  plain +search, fetch\? +no key +made by a function$",
            r"  fetch\?: .*",
        ]
    )
    result.stdout.re_match_lines([r"  my-agent +my browser agent$"])
