"""The documentation site: the reference pages are what the code gives (scripts/gen_reference.py --check), the
site builds with ``mkdocs build --strict`` (a dead link or anchor fails it), every page is in the navigation, and
every guide's marked commands run offline as written in a fresh folder, showing the outputs the page shows."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

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


def test_the_output_check_sees_a_missing_line_and_matches_elisions():
    output = "collected 55 items\nlive: 55/55 items in 12.5 s · recorded 55\n=== 55 passed in 2.41s ===\n"
    assert guides.missing_lines("live: 55/55 items in 3.0 s · recorded 55\n…\n55 passed in 9.99s", output) == []
    assert guides.missing_lines("collected … items\n55 failed", output) == ["55 failed"]
    assert guides.missing_lines("55 passed\ncollected 55 items", output) == ["collected 55 items"]  # in order


@pytest.mark.e2e  # each guide spawns pytest over the bundled suites
@pytest.mark.parametrize("page", GUIDES, ids=[p.stem for p in GUIDES])
def test_the_guide_runs_offline_as_written(page, tmp_path):
    code, parts, output = guides.run(page, tmp_path)
    assert code == 0, f"{page.name}: the commands exited {code}:\n{output[-4000:]}"
    problems = []
    for block, part in zip(guides.blocks(page), parts):
        for shown in block.shows:
            problems += [
                f"{page.name}:{block.line}: not in the output: {line}" for line in guides.missing_lines(shown, part)
            ]
    assert not problems, "\n".join(problems) + "\n--- output ---\n" + output[-4000:]
