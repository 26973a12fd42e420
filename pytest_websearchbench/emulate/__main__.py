"""``python -m pytest_websearchbench.emulate``: the same command as ``wsb-emulate``."""

import sys

from pytest_websearchbench.emulate.cli import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m pytest_websearchbench.emulate"))
