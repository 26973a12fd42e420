"""``wsb-lexbench fill``: the holes of a run (top-k pages nobody graded) graded blind by a scripted judge
double, appended to a grades file with their receipts, and the rescored run has no hole left; bad input is
one line naming what to set, exit 4, nothing written and no judge call."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from conftest import TINY_CORPUS, TINY_GRADES, TINY_SCENARIOS, read_jsonl, write_jsonl, write_lexbench_suite

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_double import JudgeDouble, served_judge  # noqa: E402

from pytest_websearchbench.lexbench.cli import main  # noqa: E402
from pytest_websearchbench.lexbench.judge import PROMPT_SHA256  # noqa: E402
from pytest_websearchbench.reporting.terminal import WIDTH  # noqa: E402

T = {d["url"]: d["title"] for d in TINY_CORPUS}
GREEN, BLACK, MIRROR = (
    "https://tea.example/green-tea-brewing",
    "https://tea.example/black-tea",
    "https://www.mirror.example/green-tea-brewing",
)
#: the suite's grades less t1's black-tea page: with t4's green-tea page and its mirror (never graded for t4),
#: `local` leaves three holes, each its own preview
GRADES = [g for g in TINY_GRADES if (g["query_id"], g["url"]) != ("t1", BLACK)]
HOLES = {("t1", BLACK), ("t4", GREEN), ("t4", MIRROR)}
ANSWERS = {
    ("green tea brewing temperature", T[BLACK]): 1,
    ("black tea boiling water", T[GREEN]): 1,
    ("black tea boiling water", T[MIRROR]): 0,
}


@pytest.fixture
def run(pytester):
    """run.json: the tiny suite answered by `local`, with three never-graded pages in its top 5."""
    write_lexbench_suite(pytester.path, "tiny", TINY_SCENARIOS, GRADES)
    pytester.makeini("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")
    path = pytester.path / "run.json"
    result = pytester.runpytest("suites", "--provider=local", f"--wsb-json={path}", "--wsb-json-raw")
    assert result.ret in (0, 1), result.stdout.str()
    return path


@pytest.fixture
def judge(monkeypatch):
    with served_judge(monkeypatch, ANSWERS) as double:
        yield double


def _holes(results: Path) -> dict[tuple[str, str], list[str]]:
    items = json.loads(results.read_text("utf-8"))["items"]
    return {(i["case_id"], i["provider"]): i["details"]["unjudged"] for i in items}


def test_the_results_file_lists_each_items_holes_and_counts_them(run):
    holes = _holes(run)
    assert holes == {
        ("t1", "local"): [BLACK],
        ("t2", "local"): [],
        ("t3", "local"): [],
        ("t4", "local"): [GREEN, MIRROR],
    }
    metrics = {i["case_id"]: i["metrics"] for i in json.loads(run.read_text("utf-8"))["items"]}
    assert [metrics[q]["unjudged"] for q in ("t1", "t2", "t3", "t4")] == [1.0, 0.0, 0.0, 2.0]


def test_fill_grades_exactly_the_holes_appends_them_and_the_rescored_run_has_none(run, judge, pytester, capsys):
    mine = pytester.path / "grades-mine.jsonl"
    old = '{"grade":2,"grader":"human:ann","query_id":"t2","url":"https://bike.example/tyre-pressure?ref=x"}'
    mine.write_text(old)  # a file of the user's (compact lines, no newline at the end): appended to, kept
    assert main(["fill", str(run), "--model", "judge-x", "--grades-file", str(mine)]) == 0
    printed = capsys.readouterr().out

    # one blind call per hole, and nothing else was asked
    assert len(judge.requests) == 3
    asked = {(JudgeDouble.packet(r)["query"], JudgeDouble.packet(r)["title"]) for r in judge.requests}
    assert asked == set(ANSWERS)
    assert "http" not in json.dumps([r.body for r in judge.requests])

    text = mine.read_text("utf-8")
    assert text.startswith(old + "\n") and text.endswith("\n")
    added = read_jsonl(mine)[1:]
    assert {(line["query_id"], line["url"]) for line in added} == HOLES and len(added) == 3
    for line in added:
        assert line["grader"] == "model:judge-x" and line["suite"] == "tiny"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", line["graded_at"])
        assert line["prompt_sha256"] == PROMPT_SHA256 and line["packet"].startswith("pk-")
        assert line["grade"] == ANSWERS[_query(line["query_id"]), line["title"]]
    for raw in text.splitlines():  # the file's own compact form
        assert raw == json.dumps(json.loads(raw), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    assert "holes: 3 pages nobody graded in 2 of 4 queries (3 blind packets)" in printed
    assert f"appended 3 grade lines (model:judge-x) to {mine}\n  sha256:" in printed  # the digest below the path
    assert f"rescore with --wsb-grades={mine}" in printed

    # the rescored run (replayed) has no hole: every top-5 page has a grade
    rescored = pytester.path / "rescored.json"
    result = pytester.runpytest(
        "suites", "--provider=local", "--wsb-record-mode=none", f"--wsb-grades={mine}", f"--wsb-json={rescored}"
    )
    assert result.ret in (0, 1), result.stdout.str()
    assert set(map(tuple, _holes(rescored).values())) == {()}
    items = json.loads(rescored.read_text("utf-8"))["items"]
    assert all(i["metrics"]["judged"] == 1.0 and i["metrics"]["unjudged"] == 0.0 for i in items)
    t1 = next(i for i in items if i["case_id"] == "t1")
    assert next(r for r in t1["results"] if r["url"] == BLACK)["grader"] == "model:judge-x"

    # filling again finds no hole (the file's own grades count) and asks nothing
    before = mine.read_bytes()
    assert main(["fill", str(run), "--model", "judge-x", "--grades-file", str(mine)]) == 0
    assert "no holes: every top-5 page of the runs has a grade or is 0 by rule" in capsys.readouterr().out
    assert mine.read_bytes() == before and len(judge.requests) == 3


def _query(qid: str) -> str:
    return next(s["query"] for s in TINY_SCENARIOS if s["id"] == qid)


def test_fill_creates_a_new_grades_file_and_replays_offline(run, judge, pytester, capsys, monkeypatch):
    new = pytester.path / "filled.jsonl"
    assert main(["fill", str(run), "--model", "judge-x", "--grades-file", str(new)]) == 0
    first = new.read_bytes()
    assert {(line["query_id"], line["url"]) for line in read_jsonl(new)} == HOLES
    new.unlink()
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.delenv("OPENAI_API_KEY")
    assert main(["fill", str(run), "--model", "judge-x", "--grades-file", str(new), "--record-mode", "none"]) == 0
    assert new.read_bytes() == first and len(judge.requests) == 3  # the same grades, from the cassettes


def test_a_hole_the_judge_cannot_grade_stays_a_hole_with_its_receipt(run, judge, pytester, capsys):
    judge.garbage[T[MIRROR]] = "always"
    mine = pytester.path / "filled.jsonl"
    assert main(["fill", str(run), "--model", "judge-x", "--grades-file", str(mine)]) == 0
    printed = capsys.readouterr().out
    assert {(line["query_id"], line["url"]) for line in read_jsonl(mine)} == HOLES - {("t4", MIRROR)}
    assert "\n  1 hole left unjudged (receipts in " in printed
    # within the summary's width, but for the lines naming a file (kept whole: their length is their path's)
    assert all(len(line) <= WIDTH for line in printed.splitlines() if str(pytester.path) not in line), printed
    receipts = read_jsonl(mine.with_name("filled.jsonl.unjudged.jsonl"))
    assert len(receipts) == 1 and receipts[0]["reason"].startswith("unparseable answer twice")


def _refused(capsys, argv: list[str], *needles: str) -> str:
    assert main(argv) == 4
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error: "), err
    for needle in needles:
        assert needle in err, err
    return err


def test_bad_input_is_one_line_exit_4_nothing_written_nothing_asked(run, judge, pytester, capsys):
    fill = ["fill", str(run), "--model", "judge-x", "--grades-file"]

    # a folder that does not exist
    missing = pytester.path / "nowhere" / "grades.jsonl"
    _refused(capsys, [*fill, str(missing)], "no folder", "set --grades-file")
    assert not missing.parent.exists()

    # not a grades file: a results file, a line that is no grade, bytes that are not text, a folder
    for bad, text in [
        ("results.jsonl", run.read_text("utf-8")),
        ("half.jsonl", json.dumps({"query_id": "t1", "url": GREEN}) + "\n"),
    ]:
        path = pytester.path / bad
        path.write_text(text, "utf-8")
        before = path.read_bytes()
        _refused(capsys, [*fill, str(path)], str(path))
        assert path.read_bytes() == before
    binary = pytester.path / "grades.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    _refused(capsys, [*fill, str(binary)], "not UTF-8 text", "set --grades-file")
    _refused(capsys, [*fill, str(pytester.path)], "not a file", "set --grades-file")

    # another suite's grades, and another suite's results
    other = write_jsonl(
        pytester.path / "other-grades.jsonl",
        [{"suite": "other", "query_id": "t1", "url": GREEN, "grade": 3, "grader": "human:ann"}],
    )
    _refused(capsys, [*fill, str(other)], "these grades are for suite 'other', not 'tiny'")
    write_lexbench_suite(pytester.path, "other", TINY_SCENARIOS, GRADES)
    _refused(
        capsys,
        ["fill", str(run), "--suite", "suites/other", "--model", "judge-x", "--grades-file", "new.jsonl"],
        "suite 'other', but the results are of 'tiny'",
    )
    assert not (pytester.path / "new.jsonl").exists()

    # a bundled suite's grades (part of the installed plugin)
    from pytest_websearchbench.core.bundled import BUNDLED_SUITES_DIR

    bundled = BUNDLED_SUITES_DIR / "lexbench-sample" / "grades.jsonl"
    before = bundled.read_bytes()
    _refused(capsys, [*fill, str(bundled)], "a bundled suite's grades", "set --grades-file")
    assert bundled.read_bytes() == before
    assert judge.requests == [] and not list(pytester.path.glob("*.unjudged.jsonl"))


def test_a_folder_that_cannot_be_written_is_refused(run, judge, pytester, capsys):
    import os

    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    locked = pytester.path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        _refused(
            capsys,
            ["fill", str(run), "--model", "judge-x", "--grades-file", str(locked / "g.jsonl")],
            "cannot be written",
            "set --grades-file",
        )
    finally:
        locked.chmod(0o755)
    assert judge.requests == []
