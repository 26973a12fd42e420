"""``once`` records again what it cannot replay (issue 48, part 7): a cassette recorded under other settings
than the run's (its produced-by stamp: for ``local``, the corpus's digest) is recorded again like a missing
one, rather than reused and then each test's stale-cassette error."""

from __future__ import annotations

import json

from test_live import _suite  # noqa: E402


def _cassettes(root):
    return sorted((root / "cassettes" / "wide" / "local").glob("*.yaml"))


def test_once_records_a_stale_cassette_again_and_reuses_the_rest(pytester):
    _suite(pytester.path, 3)
    pytester.runpytest("suites", "--provider=local", "-k", "w00 or w01")
    corpus = pytester.path / "corpus" / "corpus.jsonl"
    first = json.loads(corpus.read_text().splitlines()[0])
    before = {path.name: path.read_text() for path in _cassettes(pytester.path)}
    corpus.write_text(corpus.read_text() + json.dumps({**first, "url": "https://new.example/page"}) + "\n")
    again = pytester.runpytest("suites", "--provider=local", "--wsb-json=again.json")
    assert again.parseoutcomes().get("errors", 0) == 0
    again.stdout.fnmatch_lines(["live: 3/3 items * recorded 3 · reused 0 *"])
    after = {path.name: path.read_text() for path in _cassettes(pytester.path)}
    assert set(after) == {"w00.yaml", "w01.yaml", "w02.yaml"} and all(after[n] != before[n] for n in before)
    # the same command once more: nothing stale, nothing missing, nothing called
    pytester.runpytest("suites", "--provider=local").stdout.no_fnmatch_line("live: *")
