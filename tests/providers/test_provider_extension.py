"""The docs' third-party provider example (docs/extending/provider.md), run as written: through the plugin's hook (a
conftest.py) and through the entry-point group (an installed distribution's entry_points.txt),
against the embedded engine's HTTP API, which speaks the example's request shapes."""

from __future__ import annotations

import json
import re

import pytest

from conftest import REPO, TINY_CORPUS
from pytest_websearchbench.engine import LocalSearchServer, SearchIndex


def readme_example() -> str:
    text = (REPO / "docs" / "extending" / "provider.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- provider-example -->\s*```python\n(.*?)```", text, re.S)
    assert match, "docs/extending/provider.md lost its provider example"
    return match.group(1)


@pytest.fixture
def acme(tmp_path, monkeypatch):
    corpus = tmp_path / "acme.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in TINY_CORPUS), "utf-8")
    server = LocalSearchServer(SearchIndex.from_jsonl(corpus))
    monkeypatch.setenv("WSB_ACME_BASE_URL", server.start())
    monkeypatch.setenv("ACME_API_KEY", "acme-test-key-123")
    yield server
    server.stop()


def _check_run(result, pytester):
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*acme*", "*cost (USD)*0.0080 (4 calls)*"])
    cassette = (pytester.path / "cassettes" / "tiny" / "acme" / "t1.yaml").read_text()
    assert "https://api.acme-search.example/v1/search" in cassette and "acme-test-key-123" not in cassette


def test_a_provider_added_with_the_hook_in_a_conftest(pytester, tiny_suite, acme):
    pytester.makeconftest(readme_example())
    _check_run(pytester.runpytest("suites", "--provider=acme"), pytester)


def _install_entry_point(pytester) -> None:
    pytester.makepyfile(acme_wsb=readme_example())
    dist = pytester.path / "acme_wsb-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-wsb\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[pytest_websearchbench.providers]\nacme = acme_wsb:AcmeProvider.from_context\n"
    )
    pytester.syspathinsert()


def test_a_provider_added_through_the_entry_point_group(pytester, tiny_suite, acme):
    _install_entry_point(pytester)
    _check_run(pytester.runpytest("suites", "--provider=acme"), pytester)


@pytest.mark.parametrize("added_by", ["hook", "entry point"])
def test_a_third_party_provider_without_its_key_stops_before_collecting_like_the_built_ins(
    pytester, tiny_suite, acme, monkeypatch, added_by
):
    monkeypatch.delenv("ACME_API_KEY")
    if added_by == "hook":
        pytester.makeconftest(readme_example())
    else:
        _install_entry_point(pytester)
    result = pytester.runpytest("suites", "--provider=acme")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*provider 'acme' needs an API key: set ACME_API_KEY; there are no cassettes*"])
    assert len([line for line in result.stderr.lines if "ACME_API_KEY" in line]) == 1
