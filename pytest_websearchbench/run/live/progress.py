"""The live line: on a terminal rewritten in place, in a log a line every 30 s, with ``-q`` the end line only.

A line in a log and the end line are folded between their parts to 120 columns (``reporting.terminal.fold_parts``:
several providers' hosts and the spend of models make it long); the line rewritten in place must stay one line
(a line the terminal wraps is rewritten below itself), so it keeps the parts that fit the terminal's width."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pytest

from pytest_websearchbench.reporting.terminal import fold, fold_parts

#: seconds between live lines: on a terminal (rewritten in place), and in a log (CI)
TERMINAL_EVERY, LOG_EVERY = 0.5, 30.0


@dataclass(frozen=True)
class LiveStatus:
    """Where the live phase stands, as its line tells it."""

    done: int
    total: int
    recorded: int
    at_once: int  # of ``total``, the items worked at once (``BenchmarkFamily.works_at_once``): no cassette
    worked: int  # of those, the finished
    reused: int
    failed: int
    in_flight: int
    elapsed: float
    #: host → (requests, 429s, requests a second now, at most at once): ``Pacer.snapshot``
    hosts: dict[str, tuple[int, int, float, int | None]]
    spend: str  # ``Accounts.spend_text``: shown when items call a provider or a model
    stopped: tuple[str, ...] = ()  # why it stopped calling, a line each


class Progress:
    """Writes the live line to pytest's terminal."""

    def __init__(self, config: pytest.Config) -> None:
        self.terminal: pytest.TerminalReporter | None = config.pluginmanager.get_plugin("terminalreporter")
        self.quiet = config.get_verbosity() < 0 or self.terminal is None
        self.tty = bool(self.terminal is not None and self.terminal.isatty)
        #: a terminal's writer: its width is read at each line (the window may be resized during the run)
        self.writer = config.get_terminal_writer() if self.tty else None
        self.every = TERMINAL_EVERY if self.tty else LOG_EVERY
        self.last = time.monotonic()

    def tick(self, status: LiveStatus) -> None:
        if self.quiet or self.terminal is None or time.monotonic() - self.last < self.every * 0.9:
            return
        self.last = time.monotonic()
        if self.writer is not None:
            self.terminal.rewrite(one_line(line_parts(status), self.writer.fullwidth - 1), erase=True)
        else:
            for folded in fold_parts(line_parts(status)):
                self.terminal.write_line(folded)

    def end(self, status: LiveStatus) -> None:
        if self.terminal is None:
            return
        if self.tty and not self.quiet:
            self.terminal.rewrite("", erase=True)
        for folded in fold_parts(line_parts(status, final=True)):
            self.terminal.write_line(folded)
        for stopped in status.stopped:
            for folded in fold(stopped):  # as the summary folds it
                self.terminal.write_line(folded, red=True, bold=True)


def line_parts(status: LiveStatus, *, final: bool = False) -> list[str]:
    """The live line's parts: the items (while it runs, those in flight and the time left), then the hosts'
    rates and the spend when some items call a provider or a model (items worked at once spend nothing)."""
    parts = [f"live: {status.done}/{status.total} items" + (f" in {status.elapsed:.1f} s" if final else "")]
    if not final:
        parts.append(f"{status.in_flight} in flight")
        if status.done:
            parts.append(f"ETA {(status.total - status.done) * status.elapsed / status.done:.0f} s")
    calls = status.total > status.at_once  # items that call a provider or a model
    if calls:
        parts += [f"recorded {status.recorded}", f"reused {status.reused}"]
    if status.at_once:
        parts.append(f"worked at once {status.worked}")
    if status.failed:
        parts.append(f"errors {status.failed}")
    for host, (requests, throttled, per_second, limit) in sorted(status.hosts.items()):
        text = f"{host} {requests / status.elapsed if final else per_second:.1f}/s"
        text += f", {throttled} × 429" + (f" (at most {limit} at once)" if limit and not final else "")
        parts.append(text)
    if calls:
        parts.append(status.spend)
    return parts


def one_line(parts: list[str], width: int) -> str:
    """``parts`` on one line of at most ``width`` columns: the last parts left out until the rest fits, marked
    ``…`` (the end line shows them all); the first part is kept whatever the width."""
    text = " · ".join(parts)
    while len(text) > width and len(parts) > 1:
        parts = parts[:-1]
        text = " · ".join([*parts, "…"])
    return text
