"""The docs' screenshots are taken by scripts/gen_screenshots.py; a change to what draws them (the report's templates,
script and styles, a family's drill-down, the tests that stage them) without taking them again fails here."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO


def test_the_screenshots_were_taken_with_the_files_that_draw_them_now():
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "gen_screenshots.py"), "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_screenshot_a_page_shows_is_there_and_none_is_left_over():
    import re

    shown = {
        m for page in (REPO / "docs").rglob("*.md") for m in re.findall(r"images/([\w.-]+\.png)", page.read_text())
    }
    assert shown == {image.name for image in (REPO / "docs" / "images").glob("*.png")}
