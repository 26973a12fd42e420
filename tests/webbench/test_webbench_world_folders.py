"""Temporary world folders are removed on every way out: the server CLI on SIGTERM and SIGINT, an
episode at its end, and a process killed outright by the next run's sweep at start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from wb_support import REPO, SAMPLE

from pytest_websearchbench.webbench.webapps.folders import PREFIX, sweep_stale

TASK = SAMPLE / "wb-workplace-workplace-004-open-points-038e07-s1"


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _stale_folder(parent: Path) -> Path:
    folder = parent / f"{PREFIX}{_dead_pid()}-wb-workplace-workplace-004-open-points-038e07-s1-abc123"
    folder.mkdir()
    (folder / "world.db").write_bytes(b"x" * 1000)
    return folder


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(REPO)}


def test_the_sweep_removes_folders_of_ended_processes_only(tmp_path):
    stale = _stale_folder(tmp_path)
    mine = tmp_path / f"{PREFIX}{os.getpid()}-x-1"
    parent = tmp_path / f"{PREFIX}{os.getppid()}-x-2"
    impossible = tmp_path / f"{PREFIX}{10**30}-x-3"
    unowned, other = tmp_path / f"{PREFIX}abcdef", tmp_path / "wsb-lexbench-1"
    for folder in (mine, parent, impossible, unowned, other):
        folder.mkdir()
    assert sorted(sweep_stale(tmp_path)) == sorted([stale, impossible])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in (mine, parent, unowned, other))


def _start_cli(tmp: Path, *extra: str) -> tuple[subprocess.Popen, Path]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest_websearchbench.webbench.webapps.server", "--task", str(TASK), *extra],
        env=_env(tmp),
        cwd=tmp,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()
    assert "serving http://127.0.0.1:" in line, (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc, Path(line.split(" from ")[1].split(" (Ctrl-C")[0])


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 128 + signal.SIGTERM), (signal.SIGINT, 0)])
@pytest.mark.e2e
def test_the_server_cli_removes_its_world_folder_on_a_signal_and_sweeps_stale_ones_at_start(tmp_path, signum, code):
    stale = _stale_folder(tmp_path)
    proc, folder = _start_cli(tmp_path)
    try:
        assert not stale.exists()  # swept before the server started
        assert folder.parent == tmp_path and folder.name.startswith(
            f"{PREFIX}{proc.pid}-wb-workplace-workplace-004-open-points-038e07-s1-"
        )
        assert (folder / "world.db").is_file()
        proc.send_signal(signum)
        assert proc.wait(timeout=30) == code
    finally:
        proc.kill()  # a server that ignored the signal would outlive the run
    assert "Traceback" not in proc.stderr.read()
    assert list(tmp_path.iterdir()) == []


def test_a_world_folder_the_user_named_is_kept(tmp_path):
    proc, folder = _start_cli(tmp_path, "--dir", str(tmp_path / "mine"))
    assert folder == tmp_path / "mine"
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    assert (folder / "world.db").is_file() and (folder / "web_trace.jsonl").exists() is False


def test_an_episode_sweeps_what_a_killed_run_left_and_leaves_nothing_itself(tmp_path):
    stale = _stale_folder(tmp_path)
    script = (
        "from wb_support import sample_task\n"
        "from pytest_websearchbench.webbench.agents.episode import run_episode\n"
        "print(run_episode(sample_task('wb-workplace-workplace-004-open-points-038e07-s1'), 'oracle').stopped)\n"
    )
    env = {**_env(tmp_path), "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "tests" / "webbench")])}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "finished"
    assert not stale.exists() and list(tmp_path.iterdir()) == []
