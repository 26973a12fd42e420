"""``wsb-emulate``: a built-in provider's API, or a scripted OpenAI-compatible model, on 127.0.0.1.

    wsb-emulate provider serper [--corpus pages.jsonl] [--latency 0.2] [--per-second 5]
    wsb-emulate model --turns turns.jsonl

The first line it prints is the base URL; the lines after it are shell ``export`` lines that point the plugin
at it (``WSB_<NAME>_BASE_URL`` and a key the emulator accepts; ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``), then a
comment saying what it serves. ``--detach`` starts it in the background and returns once it serves, adding
``export WSB_EMULATE_PID=…``; ``eval "$(wsb-emulate provider serper --detach | sed 1d)"`` sets all of them.

A provider is served from a page corpus (JSON lines: ``url``, ``title``, ``text``, ``language``, ``site``,
``published``; by default the bundled sample web) through the embedded engine's BM25 index, in the vendor's
documented request and response shape (``vendors.py``); it accepts any non-empty key where the vendor takes one.
``--latency`` delays every answer, ``--server-timing`` states each answer's time in a ``Server-Timing`` header,
``--reverse`` answers every list in reverse order, ``--per-second N`` answers 429 (``Retry-After: 1``) to a request
that would make more than N admitted in the one second before it (``--rate-headers`` states the window in
every answer, as a vendor announces it). The model answers each conversation from a file of turns
(``model.load_turns``). Exit status: 0 after Ctrl-C (or SIGTERM), 2 for bad arguments or an unusable file.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_websearchbench.core.bundled import BUNDLED_SUITES_DIR
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.loopback import port_argument, serve_until_stopped
from pytest_websearchbench.emulate.vendors import VENDORS

if TYPE_CHECKING:
    from pytest_websearchbench.emulate.model import ScriptedModel
    from pytest_websearchbench.emulate.server import Emulator

#: mounts that serve a second host of a provider (its reader or fetch API), not a provider of their own
_SECOND_HOSTS = {"jina-reader", "tinyfish-fetch"}
PROVIDERS = tuple(sorted(name for name in VENDORS if name not in _SECOND_HOSTS))
DEFAULT_CORPUS = BUNDLED_SUITES_DIR / "sample-web" / "corpus.jsonl"
KEY = "emulated-key"
_CHILD = "--serve-detached"


def _parser(prog: str | None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Serve a built-in provider's API from a page corpus, or a scripted "
        "OpenAI-compatible model, on 127.0.0.1. The first line printed is the base URL.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{provider,model}")
    provider = commands.add_parser(
        "provider",
        help="serve search (and fetch) APIs in their vendors' shapes from a corpus",
        description="Serve one or more built-in providers' APIs in their vendors' documented shapes, answering "
        "from a page corpus through the embedded engine's BM25 index.",
    )
    provider.add_argument("names", metavar="NAME[,NAME...]", help=f"provider(s) to serve: {', '.join(PROVIDERS)}")
    provider.add_argument(
        "--corpus", type=Path, default=None, help="JSON-lines page corpus (default: the bundled sample web)"
    )
    provider.add_argument(
        "--latency",
        type=_seconds,
        default=0.0,
        metavar="SECONDS",
        help="answer every request after this many seconds (default 0)",
    )
    provider.add_argument(
        "--per-second",
        type=_count,
        default=None,
        metavar="N",
        help="admit at most N requests in any one-second window; the rest get 429 with "
        "Retry-After: 1 (default: no limit)",
    )
    provider.add_argument(
        "--rate-headers",
        choices=["x-ratelimit", "ietf", "openai"],
        default="",
        metavar="FORM",
        help="with --per-second: state the window in every answer, as X-RateLimit-Limit/-Remaining/-Reset, the "
        "IETF draft's RateLimit (ietf) or OpenAI's x-ratelimit-*-requests (openai); default none",
    )
    provider.add_argument(
        "--server-timing",
        action="store_true",
        help="state each answer's own time in a Server-Timing header (app;dur=MS, --latency included), as "
        "a server that reports its processing time does; a run records it as the calls' server time",
    )
    provider.add_argument(
        "--reverse",
        action="store_true",
        help="answer every result list in reverse order: the same pages ranked worse (a stand-in "
        "for a release whose ranking regressed)",
    )
    model = commands.add_parser(
        "model",
        help="serve a scripted OpenAI-compatible model (Responses API and Chat Completions)",
        description="Serve POST /v1/responses and POST /v1/chat/completions, answering each conversation "
        'from a file of turns: JSON lines (or a JSON list) of replies ({"content": ...} or '
        '{"tool_calls": [{"name": ..., "arguments": {...}}]}), turn n getting the n-th (the '
        'last repeats); or scripts {"match": TEXT, "turns": [...]}, the first whose match is in '
        "the user message answering.",
    )
    model.add_argument("--turns", type=Path, required=True, help="the file of turns")
    model.add_argument(
        "--served-model",
        metavar="NAME",
        help="answer as this model snapshot (the replies' model field, which a run records as what was "
        "served); default: the model asked for",
    )
    model.add_argument(
        "--tokens-per-minute",
        type=_count,
        default=None,
        metavar="N",
        help="limit tokens as OpenAI does: a bucket of N refilled continuously over a minute, each request charged "
        "its prompt and its answer's cap, one it cannot pay answered 429; every answer states the bucket in "
        "x-ratelimit-limit/-remaining/-reset-tokens (default: no limit)",
    )
    for sub in (provider, model):
        sub.add_argument("--port", type=port_argument, default=0, help="port to bind (default: one the OS chooses)")
        sub.add_argument(
            "--detach",
            action="store_true",
            help="serve in the background: print the lines and return once it serves "
            "(stop it with kill $WSB_EMULATE_PID)",
        )
        sub.add_argument(_CHILD, action="store_true", help=argparse.SUPPRESS)
    return parser


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 600:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds from 0 to 600")
    return value


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser(prog)
    args = parser.parse_args(argv)
    if args.detach:
        return _detach([word for word in argv if word != "--detach"])
    try:
        server, lines = _start(args, parser)
    except (OSError, SuiteError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.serve_detached:
        lines.insert(-1, f"export WSB_EMULATE_PID={os.getpid()}")
        lines[-1] = lines[-1].replace("Ctrl-C stops it", "kill $WSB_EMULATE_PID stops it")

    def ready() -> None:
        print("\n".join(lines), flush=True)
        if args.serve_detached:
            print(flush=True)  # the blank line ends what the parent passes on; nothing is written after it
            _quiet()

    return serve_until_stopped(server.stop, ready)


def _start(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[ScriptedModel | Emulator, list[str]]:
    if args.command == "model":
        from pytest_websearchbench.emulate.model import ScriptedModel, TokenBucket, from_turns, load_turns

        limit = args.tokens_per_minute
        bucket = TokenBucket(limit) if limit else None
        model = ScriptedModel(
            from_turns(load_turns(args.turns)), port=args.port, served=args.served_model, tokens=bucket
        )
        base_url = model.start()
        limited = f", {limit:,} tokens a minute" if limit else ""
        return model, [
            base_url,
            f"export OPENAI_BASE_URL={base_url}",
            f"export OPENAI_API_KEY={KEY}",
            f"# a scripted model answering from {args.turns} (Responses API and Chat Completions{limited}); Ctrl-C "
            "stops it",
        ]
    names = [name.strip() for name in args.names.split(",") if name.strip()]
    unknown = [name for name in names if name not in PROVIDERS]
    if unknown or not names:
        parser.error(f"unknown provider {', '.join(unknown) or '(none)'}; providers: {', '.join(PROVIDERS)}")
    from pytest_websearchbench.emulate.server import Emulator
    from pytest_websearchbench.engine.index import SearchIndex

    corpus = args.corpus or DEFAULT_CORPUS
    if not corpus.is_file():
        raise ValueError(f"no corpus at {corpus}")
    index = SearchIndex.from_jsonl(corpus)
    emulator = Emulator(
        index=index, any_key=True, keys={mount: KEY for mount in VENDORS}, server_timing=args.server_timing
    )
    emulator.start(port=args.port)
    for name in names:
        for mount in (name, *(m for m in _SECOND_HOSTS if VENDORS[m].provider == name)):
            emulator.pace(mount, latency=args.latency, per_second=args.per_second, headers=args.rate_headers)
            if args.reverse:
                emulator.variants[mount] = "reverse"
    base_url = emulator.base_url(names[0]) if len(names) == 1 else f"http://127.0.0.1:{emulator.port}"
    exports = {key: value for name in names for key, value in emulator.env(name).items()}
    pace = (
        ", ".join(
            filter(
                None,
                [
                    f"latency {args.latency:g} s" if args.latency else "",
                    f"at most {args.per_second} requests in any one second" if args.per_second else "",
                    f"the window stated ({args.rate_headers})" if args.per_second and args.rate_headers else "",
                    "lists reversed" if args.reverse else "",
                    "Server-Timing stated" if args.server_timing else "",
                ],
            )
        )
        or "no latency, no rate limit"
    )
    return emulator, [
        base_url,
        *(f"export {key}={shlex.quote(value)}" for key, value in exports.items()),
        f"# serving {', '.join(names)} from {len(index)} pages of {corpus} ({pace}); Ctrl-C stops it",
    ]


def _detach(argv: list[str]) -> int:
    """Start the same command in its own session, pass on what it prints up to its blank line, and leave it."""
    child = subprocess.Popen(
        [sys.executable, "-m", "pytest_websearchbench.emulate", *argv, _CHILD],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert child.stdout is not None and child.stderr is not None  # both piped
    lines: list[str] = []
    for line in child.stdout:
        if not line.strip():
            print("\n".join(lines), flush=True)
            return 0
        lines.append(line.rstrip("\n"))
    error = child.stderr.read()
    code = child.wait()
    print(error, end="", file=sys.stderr)
    return code or 2


def _quiet() -> None:
    """A detached server's stdout and stderr go nowhere: the process that read them has gone."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
