"""Regenerate the docs' screenshots (docs/images/*.png) and record what drew them.

The browser tests that take them (the HTML report, its drill-downs and transcripts, the trend page) run in a real
headless Chromium with ``WSB_REPORT_ARTIFACTS=docs/images``; then ``docs/images/sources.json`` records a digest of
the files that draw the pages (the report's templates, script and styles, the families' drill-down templates) and
of the tests that stage them. ``tests/docs/test_screenshots.py`` fails when a file under that digest changed and the
screenshots were not taken again.

    python scripts/gen_screenshots.py          # takes the screenshots again, writes sources.json
    python scripts/gen_screenshots.py --check  # exit 1 when sources.json does not match the files (what the test does)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
IMAGES = REPO / "docs" / "images"
SOURCES = IMAGES / "sources.json"
#: the tests that take the screenshots (each saves into the ``artifacts`` fixture's folder)
TESTS = (
    "tests/reporting/html/test_report_browser.py",
    "tests/reporting/html/test_transcripts.py",
    "tests/reporting/html/test_history_trends.py",
)
#: what draws the pages in them
_IMAGE = re.compile(r"images/([\w.-]+\.png)")
DRAWN_BY = ("pytest_websearchbench/reporting/html/*", "pytest_websearchbench/*/drilldown.html.j2")


def inputs() -> list[Path]:
    found = {path for pattern in DRAWN_BY for path in REPO.glob(pattern) if path.is_file() and path.suffix != ".pyc"}
    return sorted(found | {REPO / test for test in TESTS})


def digest(paths: list[Path]) -> str:
    total = hashlib.sha256()
    for path in paths:
        total.update(path.relative_to(REPO).as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return "sha256:" + total.hexdigest()


def recorded() -> dict[str, object]:
    return {"digest": digest(inputs()), "inputs": [path.relative_to(REPO).as_posix() for path in inputs()]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the screenshots are up to date")
    args = parser.parse_args(argv)
    if args.check:
        kept = json.loads(SOURCES.read_text(encoding="utf-8")) if SOURCES.is_file() else {}
        if kept.get("digest") != recorded()["digest"]:
            print(
                f"{SOURCES.relative_to(REPO)}: the screenshots are stale; take them again: python scripts/gen_screenshots.py"
            )
            return 1
        return 0
    env = {**os.environ, "WSB_REPORT_ARTIFACTS": str(IMAGES)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", *TESTS], cwd=REPO, env=env)
    if done.returncode != 0:
        print("the browser tests failed: the screenshots were not recorded as taken")
        return done.returncode
    shown = {m for page in (REPO / "docs").rglob("*.md") for m in _IMAGE.findall(page.read_text(encoding="utf-8"))}
    for image in IMAGES.glob("*.png"):
        if image.name not in shown:  # taken by a test, shown by no page
            image.unlink()
    SOURCES.write_text(json.dumps(recorded(), indent=1) + "\n", encoding="utf-8")
    print(f"screenshots taken again into {IMAGES.relative_to(REPO)}; {SOURCES.relative_to(REPO)} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
