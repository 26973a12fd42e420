"""The documentation site: the reference pages are what the code gives (scripts/gen_reference.py --check), the
site builds with ``mkdocs build --strict`` (a dead link or anchor fails it), every page is in the navigation, and
every guide's marked commands run offline as written, in plain bash in a fresh folder, printing the outputs the
page shows, whole."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CHILD_PYTEST_ADDOPTS, REPO

sys.path.insert(0, str(Path(__file__).resolve().parent))
import guides  # noqa: E402

DOCS = REPO / "docs"
GUIDES = [DOCS / "getting-started.md", *sorted((DOCS / "guides").glob("*.md"))]


def test_the_reference_pages_are_what_the_code_gives():
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "gen_reference.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_site_builds_strictly(tmp_path):
    if (
        shutil.which("mkdocs") is None
        and subprocess.run([sys.executable, "-c", "import mkdocs, material"], capture_output=True).returncode
    ):
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true and mkdocs-material is not installed (pip install -e '.[test]')")
        pytest.skip("mkdocs-material is not installed: pip install -e '.[test]'")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / "guides" / "webbench" / "index.html").is_file()


def test_every_page_is_in_the_navigation():
    nav = (REPO / "mkdocs.yml").read_text("utf-8")
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    listed = set(re.findall(r":\s*([\w/-]+\.md)\s*$", nav, re.M))
    assert pages == listed


def test_every_guide_has_commands_to_run_and_outputs_to_check():
    for page in GUIDES:
        found = guides.blocks(page)
        assert found, f"{page.name} has no <!-- guide: run --> block"
        assert any(block.shows for block in found), f"{page.name} shows no output a test checks"


def test_the_output_check_compares_whole_outputs_with_elisions():
    output = "collected 55 items\nlive: 55/55 items in 12.5 s · recorded 55\n\n=== 55 passed in 2.41s ===\n"
    shown = "collected 55 items\nlive: 55/55 items in 3.0 s · recorded 55\n55 passed in 9.99s"
    assert guides.differences(shown, output) == []  # durations and times aside, blank lines and rules aside
    assert guides.differences("collected … items\n…\n55 passed", output) == []  # a line of … stands for lines
    assert guides.differences("…", output) == []
    assert guides.differences("collected 55 items\n55 passed", output)  # a line left out is a difference
    assert guides.differences("collected 55 items\n…", output + "exit code 1\n") == []
    assert guides.differences("collected 55 items\nlive: …\n55 passed", output + "exit code 1\n")  # a line more
    assert guides.differences("collected 5 items\n…", output)  # each line is matched whole
    assert guides.differences("baseline (run 2026-12-04):", "baseline (run 2026-12-06):\n")  # dates are compared


def test_a_block_compared_by_its_lines_says_why(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- guide: run -->\n```bash\necho a; echo b\n```\n\n"
        "<!-- guide: output lines: the order of b varies -->\n```text\nb\n```\n",
        "utf-8",
    )
    (block,) = guides.blocks(page)
    (shown,) = block.shows
    assert not shown.whole
    assert guides.problems(shown, "a\nb\n") == []
    assert guides.problems(guides.Shown("b\n"), "a\nb\n")  # whole, by default


def test_a_page_runs_in_plain_bash_without_pipefail(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        '<!-- guide: run -->\n```bash\nfalse | cat || echo "exit code $?"\nfalse\necho "after $?"\n```\n', "utf-8"
    )
    code, (part,), _ = guides.run(page, tmp_path / "run", pytest_addopts=CHILD_PYTEST_ADDOPTS)
    assert (code, part) == (0, "after 1\n")  # no pipefail: the pipe's status is cat's; no -e: it goes on


@pytest.mark.e2e  # each guide spawns pytest over the bundled suites
@pytest.mark.parametrize("page", GUIDES, ids=[p.stem for p in GUIDES])
def test_the_guide_runs_offline_as_written(page, tmp_path):
    code, parts, output = guides.run(page, tmp_path, pytest_addopts=CHILD_PYTEST_ADDOPTS)
    assert code == 0, f"{page.name}: the last command exited {code}:\n{output[-4000:]}"
    problems = []
    for block, part in zip(guides.blocks(page), parts):
        for shown in block.shows:
            problems += [f"{page.name}:{block.line}: {problem}" for problem in guides.problems(shown, part)]
    assert not problems, "\n".join(problems) + "\n--- output ---\n" + output[-4000:]
