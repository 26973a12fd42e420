"""The live line: on a terminal rewritten in place, in a log a line every 30 s, with ``-q`` the end line only."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pytest

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
    spend: str  # ``Accounts.spend_text``
    stopped: tuple[str, ...] = ()  # why it stopped calling, a line each


class Progress:
    """Writes the live line to pytest's terminal."""

    def __init__(self, config: pytest.Config) -> None:
        self.terminal: pytest.TerminalReporter | None = config.pluginmanager.get_plugin("terminalreporter")
        self.quiet = config.get_verbosity() < 0 or self.terminal is None
        self.tty = bool(self.terminal is not None and self.terminal.isatty)
        self.every = TERMINAL_EVERY if self.tty else LOG_EVERY
        self.last = time.monotonic()

    def tick(self, status: LiveStatus) -> None:
        if self.quiet or self.terminal is None or time.monotonic() - self.last < self.every * 0.9:
            return
        self.last = time.monotonic()
        if self.tty:
            self.terminal.rewrite(line(status), erase=True)
        else:
            self.terminal.write_line(line(status))

    def end(self, status: LiveStatus) -> None:
        if self.terminal is None:
            return
        if self.tty and not self.quiet:
            self.terminal.rewrite("", erase=True)
        self.terminal.write_line(line(status, final=True))
        for stopped in status.stopped:
            self.terminal.write_line(stopped, red=True, bold=True)


def line(status: LiveStatus, *, final: bool = False) -> str:
    parts = [f"live: {status.done}/{status.total} items" + (f" in {status.elapsed:.1f} s" if final else "")]
    if status.total > status.at_once:  # items that call a provider or a model
        parts += [f"recorded {status.recorded}", f"reused {status.reused}"]
    if status.at_once:
        parts.append(f"worked at once {status.worked}")
    if status.failed:
        parts.append(f"errors {status.failed}")
    if not final:
        parts.insert(1, f"{status.in_flight} in flight")
    for host, (requests, throttled, per_second, limit) in sorted(status.hosts.items()):
        text = f"{host} {requests / status.elapsed if final else per_second:.1f}/s"
        text += f", {throttled} × 429" + (f" (at most {limit} at once)" if limit and not final else "")
        parts.append(text)
    parts.append(status.spend)
    if not final and status.done:
        left = (status.total - status.done) * status.elapsed / status.done
        parts.append(f"ETA {left:.0f} s")
    return " · ".join(parts)
