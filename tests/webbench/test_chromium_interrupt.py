"""Ctrl-C of a ``--wsb-browser chromium`` run: the run's own 'interrupted' lines and nothing of Playwright's
(the interrupt reaches its driver too, so closing Chromium at exit finds the connection gone)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import require_chromium

pytestmark = pytest.mark.e2e  # see E2E in tests/conftest.py


def test_ctrl_c_of_a_chromium_run_prints_no_playwright_noise(tmp_path):
    require_chromium("chromium cannot be driven")
    command = [
        sys.executable,
        "-u",
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "--suite",
        "webbench-sample",
        "--wsb-browser",
        "chromium",
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen(
        command,
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    seen = ""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:  # until the live phase starts its episodes (4 at once, run/live/)
        seen += process.stdout.read(1)
        if "collected 28 items" in seen or process.poll() is not None:
            break
    while time.monotonic() < deadline and process.poll() is None:  # until the driver runs (Chromium: its child)
        if subprocess.run(["pgrep", "-g", str(process.pid), "node"], capture_output=True).returncode == 0:
            break
        time.sleep(0.1)
    time.sleep(1)  # episodes are in their actions
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole foreground group
    rest, stderr = process.communicate(timeout=120)
    stdout = seen + rest
    assert process.returncode == 2, stdout + stderr
    assert "run incomplete: interrupted (KeyboardInterrupt)" in stdout
    assert stderr == "", stderr  # no 'Future exception was never retrieved', no atexit traceback
