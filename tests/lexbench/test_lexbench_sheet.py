"""Blind packets and the human grading sheet: export, fill in as a person would, import back into a
new grades file; every bad row is refused in one line naming the file, the line and the field."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import TINY_SCENARIOS, write_lexbench_suite
from pytest_websearchbench.lexbench.cli import main
from pytest_websearchbench.lexbench.items import scenario_from_record
from pytest_websearchbench.lexbench.packets import build_packets
from pytest_websearchbench.lexbench.pool import build_pool, load_runs

GREEN, BLACK = "https://tea.example/green-tea-brewing", "https://tea.example/black-tea"
BIKE, LVCHA = "https://bike.example/tyre-pressure", "https://cha.example/lvcha"
MIRROR = "https://www.mirror.example/green-tea-brewing"


def _hit(rank, url, title, snippet, published=None):
    return {
        "rank": rank,
        "url": url,
        "title": title,
        "snippet": snippet,
        "extra": {"published": published} if published else {},
    }


ANSWERS = {
    "alpha": {
        "t1": [
            _hit(1, GREEN, "Brewing green tea", "75 degrees for two minutes"),
            _hit(2, MIRROR, "Brewing green tea (mirror)", "a mirrored copy"),
        ],
        "t2": [_hit(1, BIKE, "Tyre pressure guide", "six bar")],
        "t3": [_hit(1, LVCHA, "绿茶的冲泡方法", "八十度")],
        "t4": [_hit(1, BLACK, "Black tea basics", "boiling water, four minutes", "2023-05-01")],
    },
    "beta": {
        "t1": [
            _hit(
                1,
                "https://tea.example/green-tea-brewing/?utm_source=x",
                "Brewing green tea",
                "75 degrees for two minutes",
            ),  # the same page and preview: one packet
            _hit(2, BLACK, "Black tea basics", "Black tea tolerates boiling water"),
        ],
        "t2": [_hit(1, BIKE, "Road bike tyre pressure", "six bar for seventy kilograms")],  # another preview
        "t3": [],
        "t4": [_hit(1, GREEN, "Brewing green tea", "boiling water makes it bitter", "2025-03-01")],
    },
}


@pytest.fixture
def run(tmp_path, monkeypatch) -> Path:
    write_lexbench_suite(
        tmp_path, "tiny", TINY_SCENARIOS, [{"query_id": "t1", "url": GREEN, "grade": 3, "grader": "human:ann"}]
    )
    items = [
        {
            "suite": "tiny",
            "case_id": case,
            "provider": provider,
            "family": "lexbench",
            "kind": "scenario",
            "outcome": "passed",
            "raw": {"queries": [], "hits": hits, "pages": [], "extra": {}},
        }
        for provider, cases in ANSWERS.items()
        for case, hits in cases.items()
    ]
    path = tmp_path / "run.json"
    path.write_text(
        json.dumps(
            {
                "format": "pytest-websearchbench/results@1",
                "k": 5,
                "suites": {"tiny": {"family": "lexbench", "kind": "scenario"}},
                "items": items,
            }
        )
    )
    monkeypatch.chdir(tmp_path)
    return path


def _pool(run):
    from pytest_websearchbench.lexbench.grades import load_grades

    scenarios = {s["id"]: scenario_from_record(s) for s in TINY_SCENARIOS}
    grades = load_grades(run.parent / "suites" / "tiny" / "grades.jsonl", set(scenarios))
    return build_pool(load_runs([run]), scenarios, grades)


def test_packets_are_blind_deduplicated_and_shuffled_with_a_fixed_seed(run):
    pools = _pool(run)
    assert [len(pools[q].entries) for q in ("t1", "t2", "t3", "t4")] == [3, 1, 1, 2]
    assert len(pools["t2"].entries[next(iter(pools["t2"].entries))].previews) == 2  # both previews kept
    packets = build_packets("tiny", pools)
    # t1: green graded, mirror off the required site (0 by rule), black left; t2: two previews; t3: one;
    # t4 (after 2022-01-01): both dated inside the window
    assert sorted((p.query_id, p.title) for p in packets.packets) == [
        ("t1", "Black tea basics"),
        ("t2", "Road bike tyre pressure"),
        ("t2", "Tyre pressure guide"),
        ("t3", "绿茶的冲泡方法"),
        ("t4", "Black tea basics"),
        ("t4", "Brewing green tea"),
    ]
    for packet in packets.packets:
        text = json.dumps(packet.__dict__, ensure_ascii=False)
        assert "alpha" not in text and "beta" not in text and "http" not in text and "example" not in text
        assert packet.id.startswith("pk-") and len(packet.id) == 15
        assert (packet.date is not None) == (packet.query_id == "t4")
    again = build_packets("tiny", _pool(run))
    assert [p.id for p in again.packets] == [p.id for p in packets.packets]
    other = build_packets("tiny", _pool(run), seed=99)
    assert sorted(p.id for p in other.packets) == sorted(p.id for p in packets.packets)
    assert [p.id for p in other.packets] != [p.id for p in packets.packets]
    # the ids name the text alone: the same packets in another order of providers
    assert {p.id for p in packets.packets} == set(packets.targets)


def _fill(sheet: Path, grades: dict[str, tuple[str, str]]) -> list[dict]:
    rows = list(csv.DictReader(sheet.open(encoding="utf-8", newline="")))
    for row in rows:
        row["grade"], row["grader"] = grades.get(row["title"], ("", ""))
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return rows


def test_a_filled_csv_sheet_imports_into_a_new_grades_file_with_human_receipts(run, capsys):
    sheet = run.parent / "sheet.csv"
    assert main(["sheet", "export", str(run), "--out", str(sheet)]) == 0
    assert (run.parent / "sheet.csv.guide.txt").read_text().startswith("Grade each row")
    header = sheet.read_text("utf-8").splitlines()[0]
    assert header == "packet_id,query,information_need,title,snippet,date,grade,grader,note"
    assert "http" not in sheet.read_text("utf-8")
    _fill(
        sheet,
        {
            "Black tea basics": ("1", "ann"),
            "Tyre pressure guide": ("3", "bo"),
            "Road bike tyre pressure": ("2", "bo"),
            "Brewing green tea": ("1", "ann"),
        },
    )
    out = run.parent / "grades-human.jsonl"
    assert main(["sheet", "import", str(run), "--sheet", str(sheet), "--out", str(out)]) == 0
    lines = {(line["query_id"], line["url"]): line for line in map(json.loads, out.read_text().splitlines())}
    assert lines["t2", BIKE]["grade"] == 3  # the page's two previews: 3 and 2, the page takes the higher
    assert lines["t2", BIKE]["packets"] and sorted(lines["t2", BIKE]["packets"].values()) == [2, 3]
    assert lines["t1", BLACK]["grader"] == "human:ann" and lines["t1", BLACK]["raw"] == "1"
    assert lines["t1", MIRROR]["grader"] == "rule:site"
    assert ("t3", LVCHA) not in lines  # left blank: not graded
    assert lines["t4", GREEN]["prompt_sha256"].startswith("sha256:") and lines["t4", GREEN]["cost_usd"] is None
    assert "human" in capsys.readouterr().out
    # the suite's grades file is untouched
    assert (run.parent / "suites" / "tiny" / "grades.jsonl").read_text().count("\n") == 1


@pytest.mark.parametrize(
    "edit, field, words",
    [
        (lambda rows: rows[0].update(grade="4", grader="ann"), "grade", "grade '4' is not 0, 1, 2 or 3"),
        (lambda rows: rows[0].update(grade="2.5", grader="ann"), "grade", "is not 0, 1, 2 or 3"),
        (lambda rows: rows[0].update(grade="2", grader=""), "grader", "no grader id"),
        (
            lambda rows: rows[0].update(packet_id="pk-000000000000", grade="1", grader="ann"),
            "packet_id",
            "unknown packet id",
        ),
        (
            lambda rows: (
                rows.append({**rows[0], "grade": "0", "grader": "bo"}) or rows[0].update(grade="3", grader="ann")
            ),
            "grade",
            "graded 0 here but 3 on line 2 (human:ann)",
        ),
    ],
)
def test_a_bad_row_is_one_line_naming_file_line_and_field(run, capsys, edit, field, words):
    sheet = run.parent / "sheet.csv"
    assert main(["sheet", "export", str(run), "--out", str(sheet)]) == 0
    rows = list(csv.DictReader(sheet.open(encoding="utf-8", newline="")))
    edit(rows)
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    out = run.parent / "grades-human.jsonl"
    assert main(["sheet", "import", str(run), "--sheet", str(sheet), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert re.search(r"sheet\.csv:\d+: ", err) and f"field '{field}'" in err and words in err
    assert not out.exists()


def test_duplicates_that_agree_are_one_grade_and_a_jsonl_sheet_works_too(run):
    sheet = run.parent / "sheet.jsonl"
    assert main(["sheet", "export", str(run), "--out", str(sheet)]) == 0
    rows = [json.loads(line) for line in sheet.read_text("utf-8").splitlines()]
    rows[0].update(grade=2, grader="ann")
    rows.append({**rows[0], "grader": "bo"})
    sheet.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    out = run.parent / "grades-human.jsonl"
    assert main(["sheet", "import", str(run), "--sheet", str(sheet), "--out", str(out)]) == 0
    graded = [json.loads(line) for line in out.read_text().splitlines() if '"human:' in line]
    assert len(graded) == 1 and graded[0]["grade"] == 2 and graded[0]["grader"] == "human:ann"


def test_runs_of_another_suite_or_k_are_refused_in_one_line(run, capsys):
    other = run.parent / "other.json"
    doc = json.loads(run.read_text())
    doc["k"] = 10
    other.write_text(json.dumps(doc))
    assert main(["sheet", "export", str(run), str(other), "--out", "s.csv"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "other.json" in err and "k=10" in err and "field 'k'" in err


_HOSTS = st.from_regex(r"[a-z]{3,8}\.(example|test)", fullmatch=True)
_PATHS = st.from_regex(r"(/[a-z0-9]{1,6}){0,3}", fullmatch=True)
_WORDS = st.lists(st.sampled_from(["tyre", "bar", "pressure", "guide", "road", "bike", "six", "the"]), max_size=8)


@settings(derandomize=True, deadline=None, max_examples=60)
@given(
    st.lists(
        st.tuples(st.sampled_from(["acmesearch", "zetafind", "quokka-api"]), _HOSTS, _PATHS, _WORDS, st.booleans()),
        min_size=1,
        max_size=12,
    )
)
def test_no_packet_carries_a_provider_a_rank_or_a_url(answers):
    from pytest_websearchbench.lexbench.pool import Run, RunItem

    items: dict[str, list[dict]] = {}
    for provider, host, path, words, link_in_snippet in answers:
        url = f"https://{host}{path}"
        snippet = " ".join(words) + (f" see {url} or www.{host}{path}" if link_in_snippet else "")
        hits = items.setdefault(provider, [])
        hits.append({"rank": len(hits) + 1, "url": url, "title": " ".join(reversed(words)), "snippet": snippet})
    run = Run("tiny", 5, tuple(RunItem("t2", p, tuple(h)) for p, h in items.items()))
    scenarios = {s["id"]: scenario_from_record(s) for s in TINY_SCENARIOS}
    packets = build_packets("tiny", build_pool(run, scenarios, {}))
    for packet in packets.packets:
        shown = json.dumps(packet.shown(), ensure_ascii=False) + packet.id
        assert set(packet.shown()) == {"query", "information_need", "title", "snippet"}
        for provider, host, path, *_ in answers:
            assert provider not in shown and f"{host}{path}" not in shown and "http" not in shown


def test_a_sheet_exported_with_calibrate_imports_without_the_flag(run, capsys):
    sheet = run.parent / "calibration.csv"
    assert main(["sheet", "export", str(run), "--calibrate", "--out", str(sheet)]) == 0
    rows = list(csv.DictReader(sheet.open(newline="", encoding="utf-8")))
    green = [r for r in rows if (r["query"], r["title"]) == ("green tea brewing temperature", "Brewing green tea")]
    assert green  # t1's green page is graded already: only a calibration sheet carries it
    _fill(sheet, {"Brewing green tea": ("2", "cy"), "Tyre pressure guide": ("3", "cy")})
    out = run.parent / "grades-human.jsonl"
    assert main(["sheet", "import", str(run), "--sheet", str(sheet), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "a calibration sheet (exported with --calibrate" in printed
    lines = {(line["query_id"], line["url"]): line for line in map(json.loads, out.read_text().splitlines())}
    assert lines["t1", GREEN]["grade"] == 2 and lines["t1", GREEN]["grader"] == "human:cy"
    assert lines["t2", BIKE]["grade"] == 3
    assert "both graded" in printed  # the agreement on the overlap with the suite's grades
    # the same import with the flag given makes the same grades
    again = run.parent / "grades-human-2.jsonl"
    assert main(["sheet", "import", str(run), "--calibrate", "--sheet", str(sheet), "--out", str(again)]) == 0
    strip = lambda path: [
        {k: v for k, v in json.loads(line).items() if k != "graded_at"}  # noqa: E731
        for line in path.read_text().splitlines()
    ]
    assert strip(again) == strip(out)
