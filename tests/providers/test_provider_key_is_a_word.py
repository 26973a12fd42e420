"""Scrubbing never changes what is scored (issue 47, part 4): a key that is also a word of the data
(``SERPER_API_KEY=four``, where an answer is "four minutes") is removed from every request a cassette
keeps, but not from the answer a test scores nor from the results file that shows it; the suite scores
the same with it as with a random key, live and replayed, and the run says once, at its start, that the
key is too short to tell apart from the data."""

from __future__ import annotations

import json
import secrets

import yaml

from pytest_websearchbench.core.secrets import FILTERED, scrub, telling, untelling_reason
from pytest_websearchbench.reporting.terminal import WIDTH

#: answers that are words of the tiny corpus (tests/conftest.py): "four" is also the key
QUESTIONS = [
    {
        "id": "f1",
        "question": "black tea boiling water: steeps how many minutes, four or five?",  # the key, in the query
        "answer": "four minutes",
        "supporting_urls": ["https://elsewhere.example/never-returned"],  # only the answer can score it
    },
    {
        "id": "f2",
        "question": "road bike tyres riders kilograms",
        "answer": "seventy kilograms",
        "supporting_urls": ["https://elsewhere.example/never-returned"],
    },
]


def _suite(root):
    folder = root / "suites" / "words"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "items.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), "utf-8")
    manifest = {"name": "words", "edition": "test-1", "family": "lexbench", "kind": "factual", "items": "items.jsonl"}
    (folder / "suite.json").write_text(json.dumps(manifest), "utf-8")


def _metrics(path):
    return {item["case_id"]: item["metrics"] for item in json.loads(path.read_text("utf-8"))["items"]}


def _requests(cassette):
    """(URI, header values, JSON body) of every request a cassette keeps."""
    found = []
    for interaction in yaml.safe_load(cassette.read_text("utf-8"))["interactions"]:
        request = interaction["request"]
        body = request.get("body")
        body = body.decode("utf-8") if isinstance(body, bytes) else body
        found.append(
            (request["uri"], [str(v) for values in request["headers"].values() for v in values], json.loads(body))
        )
    return found


def test_a_key_that_is_a_word_of_the_data_scores_as_a_random_key_live_and_replayed(
    pytester, emulator, env, monkeypatch
):
    _suite(pytester.path)
    pytester.makeini("[pytest]\n")
    (pytester.path / "out").mkdir()
    scored = {}
    for name, key in (("word", "four"), ("random", "k-" + secrets.token_hex(16))):
        emulator.keys["serper"] = key
        env("serper")
        folder = f"cassettes-{name}"
        live = pytester.runpytest(
            "suites",
            "--provider=serper",
            f"--wsb-cassette-dir={folder}",
            f"--wsb-json=out/{name}-live.json",
            "--wsb-json-raw",  # the answers, as wsb-lexbench pool reads them
        )
        live.assert_outcomes(passed=2)
        warning = "warning: SERPER_API_KEY is 4 characters: too short to tell apart from the data it could appear in;"
        assert (warning in live.stderr.str()) == (name == "word")
        assert sum(line.startswith("warning: SERPER_API_KEY") for line in live.stderr.lines) == (name == "word")
        assert max(map(len, live.stderr.lines), default=0) <= WIDTH  # the warning folded at spaces
        assert emulator.rejected == [] and {r.headers.get("x-api-key") for r in emulator.seen("serper")} == {key}
        cassettes = sorted((pytester.path / folder).rglob("*.yaml"))
        assert len(cassettes) == 2
        for cassette in cassettes:
            for uri, headers, body in _requests(cassette):
                # the key in no request a cassette keeps: no header, no URL, no body field but the query,
                # where "four" is a word of the question (a replay without the key matches it as asked)
                assert key not in uri and not [value for value in headers if key in value], cassette
                assert key not in json.dumps({field: v for field, v in body.items() if field != "q"}), cassette
        if name == "word":
            f1 = next(c for c in cassettes if c.name == "f1.yaml")
            [(_, headers, body)] = _requests(f1)
            assert FILTERED in headers and body["q"] == QUESTIONS[0]["question"]
            # ... and in the answer the test scores, the word stays
            assert (
                "four minutes" in yaml.safe_load(f1.read_text("utf-8"))["interactions"][0]["response"]["body"]["string"]
            )
            assert "four minutes" in (pytester.path / "out/word-live.json").read_text("utf-8")
        monkeypatch.delenv("SERPER_API_KEY")
        emulator.clear()
        replay = pytester.runpytest(
            "suites",
            "--provider=serper",
            f"--wsb-cassette-dir={folder}",
            "--wsb-record-mode=none",
            f"--wsb-json=out/{name}-replay.json",
        )
        replay.assert_outcomes(passed=2)
        assert emulator.requests == [] and "warning: SERPER_API_KEY" not in replay.stderr.str()
        scored[name] = (
            _metrics(pytester.path / f"out/{name}-live.json"),
            _metrics(pytester.path / f"out/{name}-replay.json"),
        )
    assert scored["word"] == scored["random"]
    live, replayed = scored["word"]
    assert live == replayed and {m["answer_found"] for m in live.values()} == {1.0}


def test_a_key_is_telling_when_long_and_neither_a_plain_word_nor_a_number():
    assert [telling(k) for k in ("four", "1921", "internationalization", "192119211921", "k-0123456789ab")] == [
        False,
        False,
        False,
        False,
        True,
    ]
    assert untelling_reason("1921") == "is 4 characters: too short"
    assert untelling_reason("internationalization") == "is a plain word: too plain"


def test_an_answer_keeps_a_short_key_except_where_it_stands_as_a_credential():
    text = 'In 1921 the treaty; https://x.example/?q=1921&api_key=1921 {"apiKey": "1921"} Bearer-less token=19210'
    assert scrub(text, ["1921"], echoes=True) == (
        'In 1921 the treaty; https://x.example/?q=1921&api_key=<FILTERED> {"apiKey": "<FILTERED>"} '
        "Bearer-less token=19210"
    )
    assert "1921" not in scrub(text.replace("19210", ""), ["1921"])  # requests, errors, logs: everywhere
    long_key = "k-0123456789abcdef"
    assert scrub(f"echoed {long_key} here", [long_key], echoes=True) == f"echoed {FILTERED} here"
