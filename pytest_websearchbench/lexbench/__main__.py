"""``python -m pytest_websearchbench.lexbench pool|sheet|judge …``: the ``wsb-lexbench`` command (cli.py)."""

import sys

from pytest_websearchbench.lexbench.cli import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m pytest_websearchbench.lexbench"))
