"""Run a docs page's marked shell blocks as a new user would, and check the outputs it shows.

A page marks a block to run with ``<!-- guide: run -->`` on the line before its ```` ```bash ```` fence, and an
output it shows with ``<!-- guide: output -->`` before a ```` ```text ```` fence: that output belongs to the run
block before it. The run blocks go, in order, to one bash process (``set -eo pipefail``: a command that is meant
to fail says so, ``|| echo "exit code $?"``) in a fresh folder, with no key, no proxy that reaches the network
(every non-loopback request goes to a closed port), the project's commands on PATH (shims for pyproject's
[project.scripts] and ``pytest``, running this checkout's code). An output block's lines must appear in that
order in the block's output (whitespace collapsed, ``…`` standing for any text, pytest's ``in 1.23s`` and its ``=====`` rules
ignored, and a time or rate — ``12.5 s``, ``3.7 / 5.5 ms``, ``4.4/s`` — matching any other).

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
MARK = re.compile(r"^<!-- guide: (run|output) -->\n```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)
SEPARATOR = "@@wsb-guide-block {}@@"
DURATION = re.compile(r"\s+in \d+(\.\d+)?s( \(\d+:\d+:\d+\))?")


@dataclass
class Block:
    source: str
    line: int
    shows: list[str] = field(default_factory=list)


def blocks(page: Path) -> list[Block]:
    text = page.read_text("utf-8")
    found: list[Block] = []
    for match in MARK.finditer(text):
        kind, body = match.group(1), match.group(3)
        line = text.count("\n", 0, match.start()) + 2
        if kind == "run":
            found.append(Block(body, line))
        else:
            if not found:
                raise ValueError(f"{page}:{line}: an output block before any run block")
            found[-1].shows.append(body)
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


def environment(bin_dir: Path) -> dict[str, str]:
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
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    return env


def run(page: Path, folder: Path, timeout: float = 900) -> tuple[int, list[str], str]:
    """Run the page's blocks in ``folder``: (exit status, each block's output, the whole output)."""
    found = blocks(page)
    script = ["set -eo pipefail"]
    for index, block in enumerate(found):
        script += [f"echo '{SEPARATOR.format(index)}'", block.source]
    work = folder / "work"
    work.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        ["bash", "-c", "\n".join(script)],
        cwd=work,
        env=environment(shims(folder)),
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


def missing_lines(shown: str, output: str) -> list[str]:
    """The shown lines that the output does not have, in order (``…`` matches any text)."""
    lines = [normal(line) for line in output.splitlines()]
    position, missing = 0, []
    for wanted in shown.splitlines():
        wanted = normal(wanted)
        if not wanted or wanted == "…":
            continue
        fragments = [f.strip() for f in wanted.split("…") if f.strip()]
        pattern = re.compile(".*?".join(re.escape(f) for f in fragments))
        for index in range(position, len(lines)):
            if pattern.search(lines[index]):
                position = index + 1
                break
        else:
            missing.append(wanted)
    return missing


def main(argv: list[str]) -> int:
    status = 0
    for name in argv:
        page = Path(name).resolve()
        with tempfile.TemporaryDirectory() as tmp:
            code, parts, _ = run(page, Path(tmp))
        for block, part in zip(blocks(page), parts):
            print(f"===== {page.name}:{block.line}\n{part}", end="")
            for shown in block.shows:
                for line in missing_lines(shown, part):
                    print(f"!!!!! not in the output: {line}")
                    status = 1
        print(f"===== exit status {code}")
        status = status or code
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
