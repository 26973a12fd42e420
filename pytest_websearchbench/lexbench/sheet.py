"""The human grading sheet: the blind packets as a CSV (for a spreadsheet) or JSONL file a person
fills in — ``grade`` 0–3 and ``grader`` (their id) on each row — and its import back, every row
checked: a known packet id, a whole grade 0–3, a grader id. The same packet graded twice alike is
one grade; graded twice differently is refused, naming both lines. Rows left blank are not graded.

The grading guide (the 0–3 scale) is written beside the sheet; its digest is each human grade's
``prompt_sha256``, as the prompt's is a model grade's.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import jsonl_records, read_suite_text
from pytest_websearchbench.lexbench.judge import Verdict
from pytest_websearchbench.lexbench.packets import Packet

COLUMNS = ("packet_id", "query", "information_need", "title", "snippet", "date", "grade", "grader", "note")

GUIDE = """\
Grade each row's search result for its query from the preview alone (title, snippet, and the date
where given). Write the grade in the "grade" column and your grader id in "grader":

3 = directly meets the core request of the query
2 = useful supporting evidence, but not the core answer
1 = related to the topic, but not enough to help
0 = irrelevant, or breaks a requirement stated in the information need (site, time, content)

The rows do not say which search engine returned them, at which rank, or at which address: grade
what you see. Leave a row blank to skip it.
"""

GUIDE_SHA256 = "sha256:" + hashlib.sha256(GUIDE.encode("utf-8")).hexdigest()


def guide_path(sheet: Path) -> Path:
    return sheet.with_name(sheet.name + ".guide.txt")


def export_sheet(path: Path, packets: tuple[Packet, ...]) -> None:
    """CSV when ``path`` ends in .csv, else JSONL; the guide beside it."""
    rows = [{**{c: "" for c in COLUMNS}, "packet_id": p.id, **p.shown(), "date": p.date or ""} for p in packets]
    if path.suffix.lower() == ".csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        text = out.getvalue()
    else:
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    write_text_atomic(path, text)
    write_text_atomic(guide_path(path), GUIDE)


def import_sheet(path: Path, packets: dict[str, Packet]) -> dict[str, Verdict]:
    """packet id → the human verdict of a filled sheet; a bad row is a SuiteError naming its line and field."""
    verdicts: dict[str, Verdict] = {}
    first_line: dict[str, int] = {}
    when = datetime.now(UTC).isoformat(timespec="seconds")
    for line, row in _rows(path):
        pid = str(row.get("packet_id") or "").strip()
        if pid not in packets:
            raise SuiteError(
                path, f"unknown packet id {pid!r} (not a packet of this pool)", line=line, field="packet_id"
            )
        cell = row.get("grade")
        text = "" if cell is None else str(cell).strip()
        grader = str(row.get("grader") or "").strip()
        if not text:
            if grader:
                raise SuiteError(path, f"{grader} left no grade", line=line, item=pid, field="grade")
            continue
        if not (text.isascii() and text.isdigit() and int(text) <= 3):
            raise SuiteError(path, f"grade {text!r} is not 0, 1, 2 or 3", line=line, item=pid, field="grade")
        if not grader:
            raise SuiteError(path, "no grader id", line=line, item=pid, field="grader")
        grade = int(text)
        if pid in verdicts:
            if verdicts[pid].grade != grade:
                raise SuiteError(
                    path,
                    f"graded {grade} here but {verdicts[pid].grade} on line {first_line[pid]} ({verdicts[pid].grader})",
                    line=line,
                    item=pid,
                    field="grade",
                )
            continue
        first_line[pid] = line
        verdicts[pid] = Verdict(
            pid, grade, f"human:{grader}", text, str(row.get("graded_at") or when), None, GUIDE_SHA256
        )
    return verdicts


def sheet_packet_ids(path: Path) -> set[str]:
    """The packet ids a sheet's rows name (which packet set it was exported from)."""
    return {str(row.get("packet_id") or "").strip() for _, row in _rows(path)}


def _rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    text = read_suite_text(path)
    if path.suffix.lower() == ".csv":
        reader = csv.DictReader(io.StringIO(text, newline=""))
        missing = [c for c in ("packet_id", "grade", "grader") if c not in (reader.fieldnames or [])]
        if missing:
            raise SuiteError(path, f"the header lacks {', '.join(missing)}", line=1, field=missing[0])
        for row in reader:
            yield reader.line_num, row
        return
    for line, record in jsonl_records(path, text):
        if not isinstance(record, dict):
            raise SuiteError(path, "expected a JSON object", line=line)
        yield line, record
