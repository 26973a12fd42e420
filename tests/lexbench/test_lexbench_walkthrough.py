"""The LexBench guide's walk-through from a checkout (docs/guides/lexbench-grading.md) runs as written on the
bundled suite with the scripted judge, and prints the figures the page quotes."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import REPO

pytestmark = pytest.mark.e2e  # the guide's walkthrough, in a shell
PAGE = REPO / "docs" / "guides" / "lexbench-grading.md"


def _walkthrough() -> str:
    readme = PAGE.read_text("utf-8")
    block = readme.split("<!-- lexbench-walkthrough -->", 1)[1]
    return re.search(r"```bash\n(.*?)```", block, re.S).group(1)


def test_the_readme_walkthrough_runs_as_written_and_prints_what_the_readme_says():
    script = _walkthrough()
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    for variable in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER"):
        env.pop(variable, None)
    done = subprocess.run(["bash", "-c", script], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    out = done.stdout
    assert done.stderr.count("Traceback") == 0, done.stderr[-3000:]
    assert "55 passed" in out  # collect
    assert re.search(r"  total +259 +259 +0 +100% +0\n", out)  # the pool: all graded
    assert out.count("packets: 202 sent · 202 graded · 0 unjudged") == 2  # recorded, then replayed offline
    assert "differ" not in out + done.stderr  # cmp: the replay wrote the same bytes
    assert out.count("Cohen's κ, quadratic weights: 0.924") == 2 and "on 215 pages both graded" in out
    assert re.search(r"\n  grades \(same for all\) +2,834 generator\n", out)  # the suite's grades came first
    assert re.search(  # the cell goes on in its column: the summary fits 120 columns
        r"\n  grades \(same for all\) +215 model \(scripted-judge, prompt sha256:[0-9a-f]{8}…\) · the "
        r"edition alone: not comparable \(model\n +grades are not human ground truth\)\n",
        out,
    )
    assert re.search(r"success@5 +0\.818 ", out)
    assert "not comparable" in out
    page = " ".join(PAGE.read_text("utf-8").split())
    for quoted in (
        "259 pages over 55 queries",
        "`packets: 202 sent · 202 graded · 0 unjudged`",
        "κ 0.924 quadratic on 215 pages",
        "215 model grades alone (success@5 0.818, *not comparable*)",
    ):
        assert quoted in page
    assert not (REPO / "run.json").exists() and not (REPO / "grades-v2.jsonl").exists()  # it ran in a scratch folder
