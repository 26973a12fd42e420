"""The README's example outputs are today's: tests/readme_outputs.py reruns each marked block's command (or
the cheaper one that prints the same figures) and compares the figures; ``--update`` rewrites them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "tests"))
import readme_outputs  # noqa: E402

pytestmark = pytest.mark.e2e  # see E2E in tests/conftest.py

DOCUMENTED = """\
$ pytest suites
...
tiny  (lexbench/scenario, edition test-1, k=5)
                   local
  items            4
  nDCG@5           0.862 [0.819, 0.904]
  latency p50/p95  3.7 / 5.5 ms

3 passed, 1 failed in 17.69s""".splitlines()

TODAY = """\
============================ websearchbench summary ============================
tiny  (lexbench/scenario, edition test-1, k=5)
                   local
  items            4
  nDCG@5           0.862 [0.818, 0.905]
  latency p50/p95  4.1 / 6.0 ms
  P@5              0.400 [0.300, 0.500]

========================= 3 passed, 1 failed in 2.01s ==========================""".splitlines()


def test_a_drifted_figure_is_one_line_and_timings_are_not_figures():
    assert readme_outputs.drift(DOCUMENTED, TODAY, whole=True) == [
        "tiny nDCG@5: README '0.862 [0.819, 0.904]', today '0.862 [0.818, 0.905]'"
    ]
    changed = [line.replace("3 passed, 1 failed", "4 passed") for line in TODAY]
    assert (
        readme_outputs.drift(DOCUMENTED, changed, whole=True)[-1]
        == "last line: README '3 passed, 1 failed', today '4 passed'"
    )
    assert len(readme_outputs.drift(DOCUMENTED, changed, whole=False)) == 1  # a cheaper command: rows only


def test_update_takes_every_figure_from_the_run_and_keeps_the_rest():
    rewritten = readme_outputs.rewrite(DOCUMENTED, TODAY)
    assert rewritten == [
        *DOCUMENTED[:5],
        "  nDCG@5           0.862 [0.818, 0.905]",
        "  latency p50/p95  4.1 / 6.0 ms",
        "",
        "3 passed, 1 failed in 2.01s",
    ]
    assert readme_outputs.drift(rewritten, TODAY, whole=True) == []


def test_the_readme_shows_todays_outputs():
    marked = readme_outputs.blocks((REPO / "README.md").read_text("utf-8").splitlines())
    assert marked, "no block of the README is marked <!-- output: COMMAND -->"
    done = subprocess.run(
        [sys.executable, str(REPO / "tests" / "readme_outputs.py")], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr + "\n(python tests/readme_outputs.py --update rewrites them)"
