"""Pool → blind packets → model judge → new edition → rescore, end to end: three providers (``local``
and two emulated vendors answering differently) collect the tiny suite through the plugin, the judge
CLI grades the pool through a scripted judge double (a loopback OpenAI-compatible server grading from
a hidden answer key), and everything it sent is scanned for what a blind grader must not see."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
import yaml

from conftest import TINY_CORPUS, read_jsonl

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_double import JudgeDouble, served_judge  # noqa: E402

from pytest_websearchbench.lexbench.cli import main  # noqa: E402
from pytest_websearchbench.lexbench.judge import PROMPT_SHA256  # noqa: E402
from pytest_websearchbench.reporting.terminal import WIDTH  # noqa: E402

PROVIDERS = ("local", "serper", "tavily")
T = {d["url"]: d["title"] for d in TINY_CORPUS}
GREEN, BLACK, MIRROR = (
    "https://tea.example/green-tea-brewing",
    "https://tea.example/black-tea",
    "https://www.mirror.example/green-tea-brewing",
)
BIKE, LVCHA = "https://bike.example/tyre-pressure", "https://cha.example/lvcha"

#: the double's hidden answer key: (query, title) → grade
ANSWERS = {
    ("green tea brewing temperature", T[GREEN]): 3,
    ("green tea brewing temperature", T[BLACK]): 1,
    ("green tea brewing temperature", T[MIRROR]): 3,
    ("green tea brewing temperature", T[BIKE]): 0,
    ("road bike tyre pressure", T[BIKE]): 3,
    ("road bike tyre pressure", T[GREEN]): 0,
    ("road bike tyre pressure", T[BLACK]): 0,
    ("road bike tyre pressure", T[MIRROR]): 0,
    ("绿茶 冲泡", T[LVCHA]): 3,
    ("black tea boiling water", T[BLACK]): 3,
    ("black tea boiling water", T[GREEN]): 1,
    ("black tea boiling water", T[MIRROR]): 1,
}


@pytest.fixture
def collected(pytester, emulator, env):
    """run.json: the tiny suite answered by local, serper and tavily (tavily in reverse order), with
    no grades but t1's two tea.example pages, so most of the pool is left to grade."""
    from conftest import TINY_SCENARIOS, write_lexbench_suite

    write_lexbench_suite(
        pytester.path,
        "tiny",
        TINY_SCENARIOS,
        [
            {"query_id": "t1", "url": GREEN, "grade": 3, "grader": "human:ann"},
            {"query_id": "t1", "url": BLACK, "grade": 2, "grader": "human:ann"},
        ],
    )
    pytester.makeini("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")
    env("serper", "tavily")
    emulator.variants["tavily"] = "reverse"
    run = pytester.path / "run.json"
    result = pytester.runpytest("suites", f"--provider={','.join(PROVIDERS)}", f"--wsb-json={run}", "--wsb-json-raw")
    assert result.ret in (0, 1), result.stdout.str()
    return run


@pytest.fixture
def judge(monkeypatch):
    with served_judge(monkeypatch, ANSWERS) as double:
        yield double


def test_the_pool_report_counts_each_querys_pages_grades_rules_and_work_left(collected, capsys):
    assert main(["pool", str(collected)]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[2:] if re.match(r"  t\d ", line)}
    # t1 pools green, black and the mirror (off the required site: 0 by rule); the two tea.example pages are graded
    assert rows["t1"] == ["3", "2", "1", "100%", "0"]
    # t2: the bike page, and the tea pages tavily's reversed list puts in its top 5 need a grade each preview
    assert rows["t2"][0] == str(len(_pool_urls(collected, "t2"))) and rows["t2"][1:3] == ["0", "0"]
    assert "pool of tiny at k=5 from 3 providers (local, serper, tavily)" in out
    assert max(map(len, out.splitlines())) <= WIDTH  # its footnote in two lines


def _within_width(printed: str, folder: Path) -> bool:
    """Whether the lines printed are within the terminal summary's width, but for those naming a file in
    ``folder``: a line naming a file is kept whole (its length is its path's), its digest below it."""
    return all(len(line) <= WIDTH for line in printed.splitlines() if str(folder) not in line)


def _pool_urls(run: Path, case: str) -> set[str]:
    from pytest_websearchbench.core.models import previews_from_rows
    from pytest_websearchbench.core.urls import normalize_url

    items = json.loads(run.read_text())["items"]  # a hit the file writes once, as its scored row, taken back
    return {
        normalize_url(h["url"])
        for i in items
        if i["case_id"] == case
        for h in previews_from_rows(i["raw"], i["results"])["hits"][:5]
    }


def test_the_judge_grades_blind_packets_once_each_and_writes_a_new_edition_with_receipts(collected, judge, capsys):
    suite_grades = (collected.parent / "suites" / "tiny" / "grades.jsonl").read_bytes()
    out = collected.parent / "grades-v2.jsonl"
    assert (
        main(
            ["judge", str(collected), "--model", "judge-x", "--out", str(out), "--price-in", "2.5", "--price-out", "10"]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert (collected.parent / "suites" / "tiny" / "grades.jsonl").read_bytes() == suite_grades  # never over them

    # blinding: no request carries a provider name, a rank, a URL or a host of a pooled page
    sent = json.dumps([r.body for r in judge.requests], ensure_ascii=False)
    for name in PROVIDERS:
        assert name not in sent
    for doc in TINY_CORPUS:
        assert doc["url"] not in sent and doc["site"] not in sent
    assert "http" not in sent and '"rank"' not in sent and "position" not in sent
    for request in judge.requests:
        packet = JudgeDouble.packet(request)
        assert set(packet) <= {"query", "information_need", "title", "snippet", "date"}
        assert request.body["temperature"] == 0
        assert ("date" in packet) == (packet["query"] == "black tea boiling water")  # t4 alone has a time window

    # eligibility before judging: the mirror is off t1's required site, so nobody was asked about it
    assert not any(JudgeDouble.packet(r)["query"] == "green tea brewing temperature" for r in judge.requests)
    lines = read_jsonl(out)
    by_page = {(line["query_id"], line["url"]): line for line in lines}
    rule = by_page["t1", MIRROR]
    assert rule["grade"] == 0 and rule["grader"] == "rule:site" and rule["packet"] is None

    # one packet per (query, distinct preview): previews that differ between providers are all graded
    packets = {tuple(sorted(JudgeDouble.packet(r).items())) for r in judge.requests}
    assert len(packets) == len(judge.requests)
    # t4's black-tea page: local and serper date it 2019 (outside the window: not sent), tavily shows no date
    dated = [
        JudgeDouble.packet(r)
        for r in judge.requests
        if JudgeDouble.packet(r)["title"] == T[BLACK] and JudgeDouble.packet(r)["query"] == "black tea boiling water"
    ]
    assert [p["date"] for p in dated] == ["unknown"]

    # receipts on every model grade
    models = [line for line in lines if line["grader"] == "model:judge-x"]
    assert models and len(models) + 1 == len(lines)
    for line in models:
        assert line["prompt_sha256"] == PROMPT_SHA256 and line["packet"].startswith("pk-")
        assert json.loads(line["raw"]) == {"grade": line["grade"]}
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", line["graded_at"])
        assert line["cost_usd"] > 0
        assert line["grade"] == ANSWERS[_query(line["query_id"]), line["title"]]
    assert by_page["t2", BIKE]["grade"] == 3
    assert by_page["t4", BLACK]["grade"] == 3 and by_page["t4", BLACK]["published"] == "2019-01-10"
    assert "sk-judge-SECRET" not in out.read_text() and "sk-judge-SECRET" not in printed
    assert f"new edition: {out} — " in printed and "(the suite's grades are untouched)\n  sha256:" in printed
    assert _within_width(printed, collected.parent)

    # the cassettes hold every call, without the key, and replay offline with no endpoint and no key
    cassettes = sorted((collected.parent / "cassettes" / "tiny" / "judge-judge-x").glob("pk-*.yaml"))
    assert len(cassettes) == len(judge.requests)
    for cassette in cassettes:
        text = cassette.read_text()
        assert "sk-judge-SECRET" not in text
        assert yaml.safe_load(text)["interactions"][0]["request"]["uri"] == "http://chat-model.invalid/chat/completions"
    before = out.read_bytes()
    out.unlink()
    judge.stop()
    served = len(judge.requests)
    import os

    del os.environ["OPENAI_BASE_URL"], os.environ["OPENAI_API_KEY"]
    assert (
        main(
            [
                "judge",
                str(collected),
                "--model",
                "judge-x",
                "--out",
                str(out),
                "--record-mode",
                "none",
                "--price-in",
                "2.5",
                "--price-out",
                "10",
            ]
        )
        == 0
    )
    assert out.read_bytes() == before and len(judge.requests) == served


def _query(qid: str) -> str:
    from conftest import TINY_SCENARIOS

    return next(s["query"] for s in TINY_SCENARIOS if s["id"] == qid)


def test_garbage_is_asked_again_once_then_unjudged_and_a_timeout_is_unjudged_never_guessed(collected, judge, capsys):
    judge.garbage[T[BIKE]] = "always"  # t2's bike page: never a readable answer
    judge.garbage[T[LVCHA]] = "once"  # t3's page: readable the second time
    judge.slow[T[BLACK]] = 1.0  # every black-tea packet outlives the client's timeout
    out = collected.parent / "grades-v2.jsonl"
    assert main(["judge", str(collected), "--model", "judge-x", "--out", str(out), "--timeout", "0.3"]) == 0
    printed = capsys.readouterr().out
    lines = {(line["query_id"], line["url"]): line for line in read_jsonl(out)}
    assert ("t2", BIKE) not in lines and ("t4", BLACK) not in lines and ("t2", BLACK) not in lines
    assert lines["t3", LVCHA]["grade"] == 3 and "\n---\n" in lines["t3", LVCHA]["raw"]
    unjudged = read_jsonl(out.with_name(out.name + ".unjudged.jsonl"))
    reasons = {u["reason"].split(":")[0] for u in unjudged}
    assert reasons == {"unparseable answer twice", "model call failed"}
    bike = [u for u in unjudged if u["reason"].startswith("unparseable")]
    assert bike and all(u["raw"].count("maybe a two") == 2 for u in bike)
    assert all(u["grader"] == "model:judge-x" and u["prompt_sha256"] == PROMPT_SHA256 for u in unjudged)
    bike_requests = [r for r in judge.requests if JudgeDouble.packet(r)["title"] == T[BIKE]]
    assert len(bike_requests) == 2 * len(bike)  # asked once more, never a third time
    assert re.search(r"packets: \d+ sent · \d+ graded · " + str(len(unjudged)) + " unjudged", printed)


def test_a_wrong_key_stops_the_judge_at_the_first_call_with_one_line(collected, judge, capsys):
    # the gateway echoes the key it was sent: the line names the failure, never the key
    judge.policy = lambda request: {"status": 401, "error": "Incorrect API key provided: sk-judge-SECRET-0123456789"}
    out = collected.parent / "grades-v2.jsonl"
    assert main(["judge", str(collected), "--model", "judge-x", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "HTTP 401" in err and "OPENAI_API_KEY" in err
    assert "Incorrect API key provided: <FILTERED>" in err and "sk-judge-SECRET" not in err
    assert len(judge.requests) <= 2 and not out.exists()


def test_replay_without_a_recorded_answer_names_the_cassette(collected, capsys):
    out = collected.parent / "grades-v2.jsonl"
    assert main(["judge", str(collected), "--model", "judge-x", "--out", str(out), "--record-mode", "none"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "judge-judge-x/pk-" in err and "--record-mode once" in err


def test_with_nothing_left_to_grade_the_judge_says_so_and_writes_no_file(collected, judge, capsys):
    first = collected.parent / "grades-v2.jsonl"
    assert main(["judge", str(collected), "--model", "judge-x", "--out", str(first)]) == 0
    sent = len(judge.requests)
    capsys.readouterr()
    again = collected.parent / "grades-v3.jsonl"
    assert main(["judge", str(collected), "--model", "judge-x", "--grades", str(first), "--out", str(again)]) == 0
    out = capsys.readouterr().out
    assert "nothing new to grade: every pooled page already has a grade" in out and "not written" in out
    assert _within_width(out, collected.parent)
    assert not again.exists() and len(judge.requests) == sent > 0


def test_the_judge_refuses_to_write_over_the_suites_grades(collected, judge, capsys):
    suite_grades = collected.parent / "suites" / "tiny" / "grades.jsonl"
    before = suite_grades.read_bytes()
    assert main(["judge", str(collected), "--model", "judge-x", "--out", str(suite_grades)]) == 2
    assert "new grades go to a new file" in capsys.readouterr().err
    assert suite_grades.read_bytes() == before and judge.requests == []


def test_rescoring_with_the_new_edition_names_the_grades_and_replays_in_the_same_pool(
    collected, judge, pytester, capsys
):
    out = pytester.path / "grades-v2.jsonl"
    assert main(["judge", str(collected), "--model", "judge-x", "--out", str(out)]) == 0
    capsys.readouterr()
    rescored = pytester.runpytest(
        "suites",
        f"--provider={','.join(PROVIDERS)}",
        "--wsb-record-mode=none",
        f"--wsb-grades={out}",
        "--wsb-json=rescored.json",
    )
    text = rescored.stdout.str()
    models = sum(line["grader"].startswith("model:") for line in read_jsonl(out))
    # three providers side by side: the long row is shown below the table, a line per provider
    at = rescored.outlines.index("  grades (same for all)")
    assert [line.split() for line in rescored.outlines[at + 1 : at + 4]] == [
        ["local", *f"2 human · {models} model (judge-x, prompt {PROMPT_SHA256[:15]}…) · 1 rule".split()],
        ["serper", "the", "same"],
        ["tavily", "the", "same"],
    ]
    assert "0 recorded" in text
    data = json.loads((pytester.path / "rescored.json").read_text())
    assert data["suites"]["tiny"]["edition"].startswith("test-1+grades-v2.jsonl@")
    before = [i["metrics"]["judged"] for i in json.loads(collected.read_text())["items"]]
    assert sum(before) / len(before) < 0.5  # collected against the suite's grades alone, most results were ungraded
    judged = [i["metrics"]["judged"] for i in data["items"] if i["outcome"] != "error"]
    assert judged and all(j == 1.0 for j in judged)  # every pooled page now has a grade
    # tavily shows t4's black-tea page undated: the date another provider showed (in the edition) rules it out
    row = next(
        r
        for i in data["items"]
        if (i["case_id"], i["provider"]) == ("t4", "tavily")
        for r in i["results"]
        if r["url"] == BLACK
    )
    assert row["violations"] == ["time"] and row["grade"] == 0


@pytest.fixture(scope="module")
def scipy_stats():
    """SciPy's statistics, the oracle, imported before the test's ``pytester``: pytester drops the modules a test
    imports when it ends, and numpy's C extensions (scipy.stats loads numpy.fft) refuse to load a second time in
    a process, which failed the next test of the worker that imports SciPy."""
    return pytest.importorskip("scipy.stats")


def test_calibration_reports_weighted_kappa_the_confusion_matrix_and_kendalls_tau(
    collected, judge, capsys, scipy_stats
):
    human = collected.parent / "grades-human.jsonl"
    human.write_text(
        "".join(
            json.dumps(line) + "\n"
            for line in [
                {"query_id": "t2", "url": BIKE, "grade": 3, "grader": "human:bo"},
                {"query_id": "t3", "url": LVCHA, "grade": 3, "grader": "human:bo"},
                {"query_id": "t4", "url": BLACK, "grade": 3, "grader": "human:bo", "published": "2019-01-10"},
                {"query_id": "t4", "url": GREEN, "grade": 1, "grader": "human:bo"},
                {"query_id": "t4", "url": MIRROR, "grade": 1, "grader": "human:bo"},
            ]
        )
    )
    judge.disagree[T[BIKE]] = 1
    out = collected.parent / "grades-v2.jsonl"
    assert (
        main(["judge", str(collected), "--grades", str(human), "--model", "judge-x", "--calibrate", "--out", str(out)])
        == 0
    )
    printed = capsys.readouterr().out
    # (reference, model) on the pages both graded: t1 green (3,3), t1 black (2,1: the suite says 2, the key 1),
    # t2 bike (3,1: the double disagrees), t3 (3,3), t4 black (3,3), t4 green (1,1), t4 mirror (1,1).
    # rows r = [0, 2, 1, 4], columns c = [0, 4, 0, 3]; observed Σw = (1 + 4)/9 / 7; expected
    # Σ rᵢcⱼ(i-j)² = 2·3·4 + 1·4·1 + 1·3·1 + 4·4·4 = 95, / (9 · 49); κ = 1 − (5/63)/(95/441) = 12/19
    assert "on 7 pages both graded" in printed
    assert f"Cohen's κ, quadratic weights: {12 / 19:.3f}" in printed
    assert re.search(r"\n  1 +0 +2 +0 +0\n  2 +0 +1 +0 +0\n  3 +0 +1 +0 +3\n", printed)
    ranking = re.findall(r"\n    (local|serper|tavily) +([\d.]+) +([\d.]+)", printed)
    assert sorted(name for name, *_ in ranking) == sorted(PROVIDERS)
    tau = scipy_stats.kendalltau([float(a) for _, a, _ in ranking], [float(b) for *_, b in ranking]).statistic
    shown = re.search(r"Kendall's τ-b between the two rankings: (\S+) \(3 providers\)", printed).group(1)
    assert shown == ("nan" if tau != tau else f"{tau:.3f}")
    # the calibration grades sit in the new edition, but scoring keeps the reference grades first
    assert {line["grader"] for line in read_jsonl(out)} == {"model:judge-x", "rule:site"}


def test_a_model_that_refuses_a_temperature_is_sent_none(collected, judge, capsys):
    out = collected.parent / "grades-v2.jsonl"
    assert main(["judge", str(collected), "--model", "judge-x", "--out", str(out), "--no-temperature"]) == 0
    assert judge.requests and all("temperature" not in r.body for r in judge.requests)


@pytest.mark.e2e  # timeouts, a 1 s answer and retries waited out in real time
def test_when_no_packet_gets_a_grade_the_judge_keeps_the_receipts_says_why_and_fails(collected, judge, capsys):
    import time

    def policy(request):  # a 500, a 429 asking for an hour, a timeout, and garbage: never one grade
        title = JudgeDouble.packet(request)["title"]
        if title == T[BIKE]:
            return {"status": 500, "error": "upstream down"}
        if title == T[LVCHA]:
            return {"status": 429, "error": "slow down", "headers": {"Retry-After": "3600"}}
        if title == T[BLACK]:
            time.sleep(1.0)
        return {"content": "Well, it depends; maybe a two?"}

    judge.policy = policy
    out = collected.parent / "grades-v2.jsonl"
    assert main(["judge", str(collected), "--model", "judge-x", "--out", str(out), "--timeout", "0.3"]) == 1
    captured = capsys.readouterr()
    unjudged = read_jsonl(out.with_name(out.name + ".unjudged.jsonl"))
    sent = len({json.dumps(JudgeDouble.packet(r), sort_keys=True) for r in judge.requests})
    assert len(unjudged) == sent > 0
    assert {u["reason"].split(":")[0] for u in unjudged} == {"model call failed", "unparseable answer twice"}
    assert f"packets: {sent} sent · 0 graded · {sent} unjudged" in captured.out
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and f"none of the {sent} packets sent got a grade" in err
    assert "HTTP 500" in err or "HTTP 429" in err or "timed out" in err.lower()
    assert "unparseable answer twice" in err and ".unjudged.jsonl" in err
    # only the rule's 0 (t1's mirror, off the required site) is a grade: no model line passes for one
    assert {line["grader"] for line in read_jsonl(out)} == {"rule:site"}


@pytest.mark.e2e
def test_ctrl_c_of_the_judge_is_one_line_and_running_it_again_resumes(collected, judge):
    import os
    import signal
    import subprocess
    import time

    judge.slow = {title: 0.4 for _, title in ANSWERS}  # every packet takes a while: the interrupt lands mid-call
    out = collected.parent / "grades-v2.jsonl"
    command = [
        sys.executable,
        "-m",
        "pytest_websearchbench.lexbench",
        "judge",
        str(collected),
        "--model",
        "judge-x",
        "--out",
        str(out),
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen(
        command,
        cwd=collected.parent,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    folder = collected.parent / "cassettes" / "tiny" / "judge-judge-x"
    deadline = time.monotonic() + 120
    while not list(folder.glob("pk-*.yaml")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole foreground group
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert stderr.splitlines() == [
        "interrupted (each packet judged so far is kept in its cassette: running the same "
        "command again resumes from there)"
    ]
    kept = len(list(folder.glob("pk-*.yaml")))
    assert kept >= 1 and not out.exists()
    served = len(judge.requests)
    judge.slow = {}
    done = subprocess.run(command, cwd=collected.parent, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(judge.requests) - served == len(list(folder.glob("pk-*.yaml"))) - kept  # the kept ones replayed


def test_the_transcript_shows_each_packet_its_prompt_digest_raw_answers_and_grade_without_the_key(
    collected, judge, capsys
):
    judge.garbage[T[LVCHA]] = "once"  # two raw answers, the second read
    judge.garbage[T[BIKE]] = "always"  # unjudged
    out, page = collected.parent / "grades-v2.jsonl", collected.parent / "judge.html"
    assert main(["judge", str(collected), "--model", "judge-x", "--out", str(out), "--transcript", str(page)]) == 0
    assert f"transcript: {page}" in capsys.readouterr().out
    html = page.read_text("utf-8")
    rows = re.findall(r'<tr class="packet" data-packet="([^"]+)">(.*?)</tr>', html, re.S)
    sent = {json.dumps(JudgeDouble.packet(r), sort_keys=True) for r in judge.requests}
    assert len(rows) == len(sent) and len({packet for packet, _ in rows}) == len(rows)  # each packet once
    assert all(PROMPT_SHA256 in row for _, row in rows)
    lvcha = [row for _, row in rows if T[LVCHA] in row]
    assert lvcha and all(
        "maybe a two?\n---\n{&#34;grade&#34;: 3}" in row and "<strong>3</strong>" in row for row in lvcha
    )
    bike = [row for _, row in rows if f"<dd>{T[BIKE]}</dd>" in row]
    assert bike and all("unjudged: unparseable answer twice" in row for row in bike)
    from pytest_websearchbench.core.urls import normalize_url

    pages = {
        (line["query_id"], normalize_url(line["url"])) for line in read_jsonl(out) if line["grader"] == "model:judge-x"
    }
    assert pages and all(f"<div>{qid}: {url}</div>" in html for qid, url in pages)  # the pages each stands for
    assert "sk-judge-SECRET" not in html and "<script" not in html


def test_the_judge_sends_its_packets_at_once_after_a_first_one_alone(collected, judge, capsys):
    judge.slow = {title: 0.3 for _, title in ANSWERS}
    out = collected.parent / "grades-v2.jsonl"
    assert main(["judge", str(collected), "--model", "judge-x", "--out", str(out), "--concurrency", "4"]) == 0
    packets = len(list((collected.parent / "cassettes" / "tiny" / "judge-judge-x").glob("pk-*.yaml")))
    assert packets > 4 and judge.most_at_once == 4  # one alone first, then four at a time
    capsys.readouterr()
    served = len(judge.requests)
    assert main(["judge", str(collected), "--model", "judge-x", "--out", str(out)]) == 0  # all kept: none sent
    assert len(judge.requests) == served
