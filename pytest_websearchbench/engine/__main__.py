"""Serve a corpus by hand: ``wsb-engine --corpus pages.jsonl`` (or ``python -m pytest_websearchbench.engine``).

Useful to poke the embedded provider with curl or to point another tool at it.
"""

from __future__ import annotations

import argparse
import sys

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.loopback import port_argument, serve_until_stopped
from pytest_websearchbench.engine import LocalSearchServer, SearchIndex


def _arguments(argv: list[str] | None, prog: str | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=prog, description="Serve a JSON-lines page corpus on 127.0.0.1.")
    parser.add_argument("--corpus", required=True, help="JSON-lines file of pages")
    parser.add_argument("--port", type=port_argument, default=0, help="port to bind (default: one the OS chooses)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """Serve until Ctrl-C; exit status 2 when the corpus or the port is unusable."""
    args = _arguments(argv, prog)
    try:
        index = SearchIndex.from_jsonl(args.corpus)
    except SuiteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    server = LocalSearchServer(index, port=args.port)
    try:
        base_url = server.start()
    except OSError as exc:
        print(f"error: cannot listen on 127.0.0.1:{args.port}: {exc.strerror}", file=sys.stderr)
        return 2
    return serve_until_stopped(
        server.stop, lambda: print(f"serving {len(index)} pages at {base_url} (Ctrl-C to stop)", flush=True)
    )


if __name__ == "__main__":
    sys.exit(main(prog="python -m pytest_websearchbench.engine"))
