"""The ``wsb-webbench`` command: WebBench's tools by hand, one subcommand each.

    wsb-webbench serve --task suites/webbench-sample/wb-workplace-workplace-004-open-points-038e07-s1 --port 8765
    wsb-webbench browse --base-url http://127.0.0.1:8765 --text < actions.jsonl
    wsb-webbench verify --contract tests/contract.json --world-dir DIR
    wsb-webbench generate --out suites/webbench-sample

Each subcommand is its module's own command, which ``python -m`` also runs (the Harbor packages'
scripts call the modules so): this module only picks one. ``wsb-webbench COMMAND --help`` lists its
arguments.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NamedTuple


class Command(NamedTuple):
    help: str
    main: Callable[[list[str], str], int]


def _serve(argv: list[str], prog: str) -> int:
    from pytest_websearchbench.webbench.webapps.server import main

    return main(argv, prog)


def _browse(argv: list[str], prog: str) -> int:
    from pytest_websearchbench.webbench.browsing.browser import main

    return main(argv, prog)


def _verify(argv: list[str], prog: str) -> int:
    from pytest_websearchbench.webbench.grading.verifier import main

    return main(argv, prog)


def _generate(argv: list[str], prog: str) -> int:
    from pytest_websearchbench.webbench.tasks.generate import main

    return main(argv, prog)


# imported when picked: each command loads only its own module
COMMANDS = {
    "serve": Command("serve a task's world until interrupted (webapps.server)", _serve),
    "browse": Command("drive a served world with JSON actions, one a line (browsing.browser)", _browse),
    "verify": Command("grade a finished world against a task contract (grading.verifier)", _verify),
    "generate": Command("write the sample suite behind the release gate (tasks.generate)", _generate),
}


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(
        prog=prog,
        description="WebBench's tools by hand.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="commands:\n" + "\n".join(f"  {name:<10} {command.help}" for name, command in COMMANDS.items()),
    )
    parser.add_argument("command", choices=COMMANDS, metavar="COMMAND", help=", ".join(COMMANDS))
    parser.add_argument(
        "arguments", nargs="*", default=[], metavar="ARG", help="the command's own (COMMAND --help lists them)"
    )
    if not argv or argv[0] not in COMMANDS:
        parser.parse_args(argv[:1])  # exits: the help, or the usage and what is wrong
    return COMMANDS[argv[0]].main(argv[1:], f"{parser.prog} {argv[0]}")
