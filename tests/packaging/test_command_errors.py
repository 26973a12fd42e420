"""Every command on bad input (issue 46, part 8): a missing path, a folder where a file goes, a file of garbage, a
bad number: one line naming what is wrong and an exit status other than 0 (2 for usage, as argparse), never a
traceback. Run in-process through each command's ``main(argv)``; what escapes it is the traceback a user sees."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_websearchbench.emulate.cli import main as emulate
from pytest_websearchbench.engine.__main__ import main as engine
from pytest_websearchbench.lexbench.cli import main as lexbench
from pytest_websearchbench.report import main as report
from pytest_websearchbench.webbench.cli import main as webbench

COMMANDS: dict[str, Callable[..., int]] = {
    "wsb-webbench": webbench,
    "wsb-lexbench": lexbench,
    "wsb-report": report,
    "wsb-engine": engine,
    "wsb-emulate": emulate,
}

#: {missing} a path that does not exist, {folder} a folder, {garbage} a file of bytes that are no format
PATH_CASES = [
    "wsb-webbench serve --task {path}",
    "wsb-webbench serve --world {path}",
    "wsb-webbench browse --base-url http://127.0.0.1:9 --actions {path}",
    "wsb-webbench verify --contract {path} --world-dir {folder}",
    "wsb-webbench verify --contract {garbage} --world-dir {path}",
    "wsb-lexbench pool {path}",
    "wsb-lexbench pool --grades {path} {garbage}",
    "wsb-lexbench sheet export --out {folder}/sheet.csv {path}",
    "wsb-lexbench sheet import {path} --out {folder}/grades.jsonl",
    "wsb-lexbench judge --model m --out {folder}/j.jsonl --record-mode none {path}",
    "wsb-lexbench fill --model m --grades-file {folder}/g.jsonl --record-mode none {path}",
    "wsb-report {path}",
    "wsb-report --history {path}",
    "wsb-engine --corpus {path}",
    "wsb-emulate provider serper --corpus {path}",
    "wsb-emulate model --turns {path}",
]
OTHER_CASES = [
    "wsb-webbench serve --world {garbage} --port 99999",
    "wsb-webbench serve --world {garbage} --port eight",
    "wsb-webbench generate --seeds 1,x --out {folder}/gen",
    "wsb-webbench generate --out {garbage}",
    "wsb-webbench browse --base-url not-a-url --actions {garbage}",
    "wsb-webbench browse --base-url http://127.0.0.1:9 --actions {garbage}",
    "wsb-lexbench judge --model m --out {folder}/j.jsonl --concurrency 0 {garbage}",
    "wsb-lexbench judge --model m --out {folder}/j.jsonl --timeout soon {garbage}",
    "wsb-report -o {folder} {garbage}",
    "wsb-engine --corpus {garbage} --port 99999",
    "wsb-emulate provider nosuch",
    "wsb-emulate provider serper --port 70000",
    "wsb-emulate provider serper --per-second 0",
    "wsb-emulate model --turns {garbage}",
]


@pytest.fixture
def places(tmp_path: Path) -> dict[str, str]:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    garbage = tmp_path / "garbage"
    garbage.write_bytes(b"\x00\xff{{{ not any format\n\x81")
    return {"missing": str(tmp_path / "missing"), "folder": str(folder), "garbage": str(garbage)}


def _run(line: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    command, *argv = line.split()
    try:
        status = COMMANDS[command](argv, prog=command)
    except SystemExit as exit:  # argparse's usage errors
        status = exit.code if isinstance(exit.code, int) else 1
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _one_line(status: int, out: str, err: str) -> None:
    assert status != 0
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    if status == 2 and lines and lines[0].startswith("usage:"):  # argparse: the usage, then one line saying why
        lines = lines[1:]
        lines = [line for line in lines if not line.startswith(" ")]  # a usage wrapped over several lines
    if not lines and '"graded": false' in out:  # verify's documented answer: JSON on stdout, exit 2
        return
    assert len(lines) == 1, err


@pytest.mark.parametrize("kind", ["missing", "folder", "garbage"])
@pytest.mark.parametrize("case", PATH_CASES)
def test_a_missing_folder_or_garbage_path_is_one_line(case, kind, places, capsys):
    line = case.format(path=places[kind], **places)
    status, out, err = _run(line, capsys)
    _one_line(status, out, err)


@pytest.mark.parametrize("case", OTHER_CASES)
def test_a_bad_number_or_value_is_one_line(case, places, capsys):
    status, out, err = _run(case.format(**places), capsys)
    _one_line(status, out, err)


def test_serve_names_the_task_folder_it_did_not_find(places, capsys):
    status, _, err = _run(f"wsb-webbench serve --task {places['missing']}", capsys)
    assert status == 2 and "--task" in err and "no such folder" in err
