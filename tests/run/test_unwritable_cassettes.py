"""The live phase on a full disk or a read-only cassette folder (run/live/): a cassette that cannot be written
is its item's one-line error naming the file and the errno's words, never a traceback; after the first, no item
starts (its paid calls could not be kept), each left says why, and the summary says so in one line. And the
temp files a killed run left in the cassette folder are removed at the next start."""

from __future__ import annotations

import errno
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from test_distributed import _wide_suite  # noqa: E402
from test_live_line import unfolded  # noqa: E402

from pytest_websearchbench.cassettes import persister

FULL = "No space left on device"
NOT_CALLED = f"not called: the cassette folder cannot be written ({FULL})"


def _suite(root: Path, items: int) -> list[str]:
    ids = _wide_suite(root, items)
    (root / "tox.ini").write_text("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")
    return ids


def _one_line_errors(result: pytest.RunResult, folder: str, first: str) -> None:
    """The run's output: no traceback, the failed write once, and the summary's line."""
    text = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in text and "OSError" not in text
    result.stdout.fnmatch_lines([f"wide/{first}?serper?: cannot write {folder}/wide/serper/{first}.yaml: {FULL}"])
    pytest.LineMatcher(unfolded(result.outlines)).fnmatch_lines(  # folded within 120 columns
        [f"live: stopped calling after a cassette could not be written ({FULL}): * items not called; *"]
    )


def test_after_the_first_cassette_that_cannot_be_written_no_item_is_called(pytester, emulator, env, monkeypatch):
    env("serper")
    _suite(pytester.path, 8)
    real = persister.write_text_atomic
    written: list[Path] = []

    def fills_up(path, text):  # the third cassette finds the disk full
        if len(written) == 2:
            raise OSError(errno.ENOSPC, FULL)
        real(path, text)
        written.append(path)

    monkeypatch.setattr(persister, "write_text_atomic", fills_up)
    result = pytester.runpytest("suites", "--provider=serper", "--wsb-concurrency=1")
    assert len(emulator.seen("serper")) == 3  # w00, w01 kept; w02 called, not kept; none after
    result.assert_outcomes(passed=2, errors=6)
    _one_line_errors(result, "cassettes", "w02")
    result.stdout.fnmatch_lines([f"wide/w0{i}?serper?: {NOT_CALLED}" for i in range(3, 8)])
    result.stdout.fnmatch_lines([f"  serper errors: 5× {NOT_CALLED}"])  # one reason, not one per item
    result.stdout.fnmatch_lines(["live: 8/8 items * recorded 2 · reused 0 · errors 6 *"])
    assert [p.name for p in written] == ["w00.yaml", "w01.yaml"]


@pytest.fixture
def small_disk(pytester):
    """A 200 KB tmpfs at ``disk/`` (root may mount one; anyone else skips, saying why), nearly filled."""
    folder = pytester.path / "disk"
    folder.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("a full disk needs a tmpfs: mount(8) as root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(folder)], capture_output=True, text=True
    )
    if mounted.returncode:
        pytest.skip(f"mount -t tmpfs is not permitted here: {mounted.stderr.strip()}")
    try:
        # a few cassettes' room left (each a few KB): the disk fills a few items into the live run
        free = os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize
        (folder / "filler").write_bytes(b"x" * (free - 12 * 1024))
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_a_full_disk_stops_the_live_run_after_its_first_failed_write(pytester, emulator, env, small_disk):
    env("serper")
    _suite(pytester.path, 24)
    result = pytester.runpytest(
        "suites", "--provider=serper", "--wsb-concurrency=1", "--wsb-cassette-dir=disk/cassettes", "-q"
    )
    kept = sorted(p.stem for p in (small_disk / "cassettes" / "wide" / "serper").glob("*.yaml"))
    failed = f"w{len(kept):02d}"
    assert kept == [f"w{i:02d}" for i in range(len(kept))] and len(kept) < 23, kept
    assert len(emulator.seen("serper")) == len(kept) + 1  # the one whose answer could not be kept, then none
    _one_line_errors(result, "disk/cassettes", failed)
    # each item left says why (counted by item: pytest prints an error's message in more than one section, how
    # many depends on the terminal's width and on CI=true)
    told = set(re.findall(rf"wide/(w\d\d)\[serper\]: {re.escape(NOT_CALLED)}", result.stdout.str()))
    assert len(told) == 24 - len(kept) - 1
    assert not [p for p in small_disk.rglob("*") if p.name.endswith(".tmp")]  # no temp file left on the disk


def test_a_killed_runs_temp_files_in_the_cassette_folder_are_removed_at_the_next_start(pytester, emulator, env):
    env("serper")
    _suite(pytester.path, 2)
    folder = pytester.path / "cassettes" / "wide" / "serper"
    folder.mkdir(parents=True)
    start = time.time()
    left = folder / ".w00.yaml.k9x2ab_q.tmp"  # kill -9 between the temp file and its rename
    being_written = folder / ".w01.yaml.p3m8zz_0.tmp"  # newer than the run: another run's, kept
    mine = folder / "w00.notes.tmp"  # not the writer's name: kept
    for path, when in ((left, start - 3600), (being_written, start + 3600), (mine, start - 3600)):
        path.write_text("interactions: [")
        os.utime(path, (when, when))
    result = pytester.runpytest("suites", "--provider=serper")
    result.assert_outcomes(passed=2)
    assert not left.exists() and being_written.exists() and mine.exists()
    assert sorted(p.name for p in folder.glob("*.yaml")) == ["w00.yaml", "w01.yaml"]
