"""Run a docs page's marked shell blocks as a new user would, and check the outputs it shows.

A page marks a block to run with ``<!-- guide: run -->`` on the line before its ```` ```bash ```` fence, and an
output it shows with ``<!-- guide: output -->`` before a ```` ```text ```` fence: that output belongs to the run
block before it. The run blocks go, in order, to one plain ``bash`` process (no ``set -e``, no ``pipefail``: what
a reader's shell does when they paste the page) in a fresh folder, with no key, no proxy that reaches the network
(every non-loopback request goes to a closed port), the project's commands on PATH (shims for pyproject's
[project.scripts] and ``pytest``, running this checkout's code). The page passes when the script's last command
succeeds and every output block is the whole output of its run block: line by line, blank lines and pytest's
``=====`` rules aside, pytest's ``in 1.23s`` left out and a time or rate (``12.5 s``, ``3.7 / 5.5 ms``,
``4.4/s``) matching any other; a line that is only ``…`` stands for any number of lines, and ``…`` within a line
for any text. Dates are compared as they are.

A block whose output cannot be compared whole (it varies from run to run) says why in its marker,
``<!-- guide: output lines: REASON -->``: its lines must then appear in that order in the block's output.

``python tests/docs/guides.py docs/guides/PAGE.md`` runs a page and prints each block's output (for writing one).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MARK = re.compile(r"^<!-- guide: (run|output)( lines: [^\n]*?)? -->\n```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)
SEPARATOR = "@@wsb-guide-block {}@@"
DURATION = re.compile(r"\s+in \d+(\.\d+)?s( \(\d+:\d+:\d+\))?")


@dataclass
class Shown:
    text: str
    whole: bool = True  # compared whole; else only its lines, in order (the marker says why)


@dataclass
class Block:
    source: str
    line: int
    shows: list[Shown] = field(default_factory=list)


def blocks(page: Path) -> list[Block]:
    text = page.read_text("utf-8")
    found: list[Block] = []
    for match in MARK.finditer(text):
        kind, reason, body = match.group(1), match.group(2), match.group(4)
        line = text.count("\n", 0, match.start()) + 2
        if kind == "run":
            if reason:
                raise ValueError(f"{page}:{line}: a run block's marker takes no reason")
            found.append(Block(body, line))
        else:
            if not found:
                raise ValueError(f"{page}:{line}: an output block before any run block")
            found[-1].shows.append(Shown(body, whole=not reason))
    return found


def shims(folder: Path) -> Path:
    """A bin folder: pytest, python and every command of pyproject's [project.scripts], running this checkout."""
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    commands = {
        "pytest": f'exec "{sys.executable}" -m pytest "$@"',
        "python": f'exec "{sys.executable}" "$@"',
        "python3": f'exec "{sys.executable}" "$@"',
    }
    for name, target in scripts.items():
        module, function = target.split(":")
        commands[name] = (
            f'exec "{sys.executable}" -c "import sys; sys.argv[0] = \'{name}\'; '
            f'from {module} import {function}; sys.exit({function}())" "$@"'
        )
    # what wsb-emulate prints is also kept, so that the test ends every emulator a page left running
    commands["wsb-emulate"] = (
        f"out=$({commands['wsb-emulate'].removeprefix('exec ')}); status=$?; "
        f'printf "%s\\n" "$out" >> "{folder}/emulate.log"; printf "%s\\n" "$out"; '
        "exit $status"
    )
    for name, body in commands.items():
        path = bin_dir / name
        path.write_text(f"#!/bin/sh\n{body}\n", "utf-8")
        path.chmod(0o755)
    return bin_dir


def environment(bin_dir: Path, pytest_addopts: str = "") -> dict[str, str]:
    """A reader's plain shell: no key, no proxy out, the shims first on PATH; ``pytest_addopts``: PYTEST_ADDOPTS
    for the page's pytest commands (the tests leave out the test environment's own plugins, which a reader's
    install does not have)."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not (
            name.endswith(("_API_KEY", "_TOKEN"))
            or name.startswith(("PYTEST_", "OPENAI_", "WSB_", "HF_"))
            or name
            in (
                "GOOGLE_CSE_ID",
                "GITHUB_STEP_SUMMARY",
                "COV_CORE_SOURCE",
                # a reader's terminal, not CI's: with CI set pytest quotes a failure's whole
                # message in its short summary, and a guide's `| tail` shows other lines
                "CI",
                "BUILD_NUMBER",
            )
        )
    }
    closed = "http://127.0.0.1:9"  # nothing listens there: a request that leaves the machine fails at once
    env.update(
        {
            "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
            "PYTHONPATH": str(REPO),
            "HTTP_PROXY": closed,
            "HTTPS_PROXY": closed,
            "http_proxy": closed,
            "https_proxy": closed,
            "ALL_PROXY": closed,
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
            "HF_HUB_OFFLINE": "1",
            "COLUMNS": "120",
        }
    )
    if pytest_addopts:
        env["PYTEST_ADDOPTS"] = pytest_addopts
    return env


def run(page: Path, folder: Path, timeout: float = 900, pytest_addopts: str = "") -> tuple[int, list[str], str]:
    """Run the page's blocks in ``folder``: (exit status, each block's output, the whole output)."""
    found = blocks(page)
    script = []
    for index, block in enumerate(found):
        script += [f"echo '{SEPARATOR.format(index)}'", block.source]
    work = folder / "work"
    work.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        ["bash", "-c", "\n".join(script)],
        cwd=work,
        env=environment(shims(folder), pytest_addopts),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    output = ""
    try:
        output, _ = process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
        log = folder / "emulate.log"
        stop_emulators(log.read_text("utf-8") if log.is_file() else "")
    parts = re.split(r"^@@wsb-guide-block \d+@@\n", output, flags=re.M)[1:]
    return process.returncode, parts + [""] * (len(found) - len(parts)), output


def stop_emulators(output: str) -> None:
    """End every ``wsb-emulate --detach`` the page started and left running: each printed its pid."""
    for pid in {int(found) for found in re.findall(r"WSB_EMULATE_PID=(\d+)", output)}:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


BANNER = re.compile(r"[=_]{3,}")
TIMING = re.compile(r"\d+(\.\d+)?(\s?/\s?\d+(\.\d+)?)?(?=\s?(ms|s|/s)\b)")


def normal(line: str) -> str:
    """A line as compared: pytest's durations and banner rules (their width is the terminal's) left out, and any
    time or rate (a number before ``s``, ``ms`` or ``/s``) standing for any other."""
    return " ".join(TIMING.sub("#", BANNER.sub(" ", DURATION.sub("", line))).split())


def line_pattern(wanted: str) -> re.Pattern[str]:
    """A shown line (normalised) as a pattern for a whole output line: ``…`` stands for any text."""
    return re.compile(".*?".join(re.escape(f.strip()) for f in wanted.split("…")), re.S)


def missing_lines(shown: str, output: str) -> list[str]:
    """The shown lines that the output does not have, in order (``…`` matches any text)."""
    lines = [normal(line) for line in output.splitlines()]
    position, missing = 0, []
    for wanted in shown.splitlines():
        wanted = normal(wanted)
        if not wanted or wanted == "…":
            continue
        pattern = line_pattern(wanted)
        for index in range(position, len(lines)):
            if pattern.search(lines[index]):
                position = index + 1
                break
        else:
            missing.append(wanted)
    return missing


def differences(shown: str, output: str) -> list[str]:
    """Where the output is not the shown output, whole (empty: it is). Blank lines and rules aside, each shown line
    must match one output line from start to end; a line that is only ``…`` matches any number of lines."""
    wanted = [w for w in (normal(line) for line in shown.splitlines()) if w]
    got = [g for g in (normal(line) for line in output.splitlines()) if g]
    patterns = [None if w == "…" else line_pattern(w) for w in wanted]
    reached: dict[tuple[int, int], bool] = {}
    furthest = [(0, 0)]  # the furthest shown line reached, and the first output line it was tried against

    def match(i: int, j: int) -> bool:
        if (i, j) in reached:
            return reached[(i, j)]
        if i > furthest[0][0]:
            furthest[0] = (i, j)
        if i == len(wanted):
            ok = j == len(got)
        elif patterns[i] is None:
            ok = match(i + 1, j) or (j < len(got) and match(i, j + 1))
        else:
            ok = j < len(got) and patterns[i].fullmatch(got[j]) is not None and match(i + 1, j + 1)
        reached[(i, j)] = ok
        return ok

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * (len(wanted) + len(got)) + 100))
    if match(0, 0):
        return []
    i, j = furthest[0]
    i = min(i, len(wanted) - 1) if wanted else 0
    expected = wanted[i] if wanted else "(nothing)"
    actual = got[j] if j < len(got) else "(the output ends)"
    return [f"shown line {i + 1}: {expected!r}, printed: {actual!r}"]


def problems(shown: Shown, output: str) -> list[str]:
    """What is wrong with a block's output against one output block the page shows (empty: nothing)."""
    if shown.whole:
        return differences(shown.text, output)
    return [f"not in the output: {line}" for line in missing_lines(shown.text, output)]


def main(argv: list[str]) -> int:
    status = 0
    for name in argv:
        page = Path(name).resolve()
        with tempfile.TemporaryDirectory() as tmp:
            code, parts, _ = run(page, Path(tmp))
        for block, part in zip(blocks(page), parts):
            print(f"===== {page.name}:{block.line}\n{part}", end="")
            for shown in block.shows:
                for problem in problems(shown, part):
                    print(f"!!!!! {problem}")
                    status = 1
        print(f"===== exit status {code}")
        status = status or code
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
