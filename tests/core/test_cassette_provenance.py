"""Cassettes carry what produced them (the local corpus's digest, an API's options): replaying one under
other settings is an error saying what differs; the default cassette folder does not follow pytest's
rootdir guess, and the summary names it whenever something was recorded."""

from __future__ import annotations

from conftest import TINY_CORPUS, write_jsonl
from pytest_websearchbench.providers.serper import SerperProvider


def test_replaying_against_another_corpus_is_a_stale_cassette_error(pytester, tiny_suite):
    pytester.runpytest("suites").assert_outcomes(passed=3, failed=1)
    cassette = (pytester.path / "cassettes" / "tiny" / "local" / "t2.yaml").read_text()
    assert "x-wsb-produced-by" in cassette and '"corpus": "sha256:' in cassette
    degraded = write_jsonl(pytester.path / "release2" / "corpus.jsonl", TINY_CORPUS[:3])  # the bike page is gone
    result = pytester.runpytest("suites", "--wsb-record-mode=none", f"--wsb-local-corpus={degraded}", "-k", "t2")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*tiny/t2[[]local[]]: the cassette *t2.yaml is stale: corpus sha256:* when "
            "recorded, sha256:* now. Re-record it with --wsb-record-mode=rewrite*"
        ]
    )
    # once records what is missing, failed or stale (issue 48): the stale answer is recorded again, from release 2
    once = pytester.runpytest("suites", "--wsb-record-mode=once", f"--wsb-local-corpus={degraded}", "-k", "t2")
    once.assert_outcomes(failed=1)  # the bike page is gone: t2 fails its gate now
    once.stdout.fnmatch_lines(["*cassettes*0 replayed · 1 recorded*"])
    pytester.runpytest(
        "suites", "--wsb-record-mode=none", f"--wsb-local-corpus={degraded}", "-k", "t2"
    ).assert_outcomes(failed=1)
    # recorded into their own folder, release 2's answers are its own
    result = pytester.runpytest(
        "suites",
        "--wsb-record-mode=rewrite",
        f"--wsb-local-corpus={degraded}",
        "--wsb-cassette-dir=runs/release2",
        "-k",
        "t2",
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"cassettes recorded under {pytester.path / 'runs' / 'release2'}"])


def test_an_api_providers_options_are_what_produced_its_answers():
    provider = SerperProvider("serper", "https://google.serper.dev", "key", {"gl": "de", "hl": None, "tbs": None})
    assert provider.produced_by() == {"gl": "de"}


def test_the_cassette_folder_stays_beside_the_config_file(pytester, tiny_suite, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "corpus.jsonl"
    write_jsonl(outside, TINY_CORPUS)
    # the rootdir is pytest's guess (here moved on purpose): the cassettes never follow it
    result = pytester.runpytest("suites", f"--rootdir={outside.parent}", f"--wsb-local-corpus={outside}", "-k", "t1")
    result.assert_outcomes(passed=1)
    assert (pytester.path / "cassettes" / "tiny" / "local" / "t1.yaml").is_file()
    assert not (outside.parent / "cassettes").exists()
    result.stdout.fnmatch_lines([f"cassettes recorded under {pytester.path / 'cassettes'}"])
