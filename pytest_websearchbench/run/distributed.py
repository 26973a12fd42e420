"""A run spread by pytest-xdist over gateways (``-n``, ``--tx popen//…``, ``--tx ssh=…``, ``--tx socket=…``),
some perhaps on other machines.

Two things that hold on one machine need the controller there. The ``--wsb-rate`` limiter is a state
file in the temp folder (providers/pacing.py), shared only by workers on the same machine, account
and temp folder: the controller hands each such group of workers its share of every rate, so the
groups together keep the run's rate. And a worker writes the cassettes it records into its own
cassette folder, maybe on another disk: it sends each one (already scrubbed of secrets) with its
report, and the controller writes it into its own folder.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pytest

from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.options import Settings
from pytest_websearchbench.core.policies import Rate

if TYPE_CHECKING:
    from execnet import XSpec

#: the worker's share of each --wsb-rate, in ``workerinput``: {provider or "*": [count, per_seconds]}
_RATES = "wsb_rates"
#: the cassette a worker recorded for an item, on its setup report: {"path": relative, "text": ...}
_CASSETTE = "wsb_cassette"


class XdistGateway(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def spec(self) -> XSpec: ...


class XdistNodeManager(Protocol):
    @property
    def specs(self) -> Sequence[XSpec]: ...


class XdistNode(Protocol):
    """What the plugin's xdist hooks use of xdist's ``WorkerController`` (xdist ships no type information)."""

    @property
    def nodemanager(self) -> XdistNodeManager: ...

    @property
    def gateway(self) -> XdistGateway: ...

    @property
    def workerinput(self) -> dict[str, Any]: ...


def plugin_for(config: pytest.Config, settings: Settings) -> object | None:
    """The plugin object of this process's role in an xdist run; None when xdist does not distribute."""
    if hasattr(config, "workerinput"):
        return _Worker(settings)
    if config.getoption("dist", "no") != "no" and config.getoption("tx", None) and not config.option.collectonly:
        return _Controller(settings)
    return None


#: families whose items only replay and score, a few milliseconds each, once a live run's calls are made
#: (run/live/): workers cost more than they save (benchmarks/README.md, issue 36)
_LIGHT_FAMILIES = frozenset({"lexbench", "code"})


def auto_workers(config: pytest.Config) -> int | None:
    """What ``-n auto`` means for this run: 0 (no workers) when it runs nothing but suites of light
    families, named by ``--suite`` or as arguments; None (xdist's own answer, a worker a core) when it may
    run other tests, or WebBench episodes (a world server and a browser each: CPU-bound)."""
    from pytest_websearchbench.core.exceptions import WebSearchBenchError
    from pytest_websearchbench.core.suites import MANIFEST_NAME
    from pytest_websearchbench.run.keys import named_families
    from pytest_websearchbench.sources.resolve import resolve_suite_spec

    given = config.args_source is pytest.Config.ArgsSource.ARGS
    specs = list(config.getoption("wsb_suite") or [])
    paths = []
    for arg in config.args if given else []:
        path = Path(config.invocation_params.dir, arg.split("::", 1)[0])
        if not ((path / MANIFEST_NAME).is_file() or path.suffix in (".jsonl", ".json")):
            return None  # a test folder or module: xdist decides
        paths.append(path)
    if not specs and not paths:
        return None
    try:
        paths += [
            resolve_suite_spec(spec, config.rootpath, config.invocation_params.dir)
            for spec in specs
            if "://" not in spec
        ]
    except WebSearchBenchError:
        return None  # a usage error, said at configure
    families = named_families(paths)
    return 0 if families is not None and set(families) <= _LIGHT_FAMILIES else None


def host_rates(config: pytest.Config, rates: Mapping[str, Rate]) -> Mapping[str, Rate]:
    """The rates this process books its slots at: on an xdist worker its group's share of ``rates``."""
    shares = getattr(config, "workerinput", {}).get(_RATES)
    if shares is None:
        return rates
    return {name: Rate(count, per_seconds) for name, (count, per_seconds) in shares.items()}


def on_this_machine(specs: Iterable[XSpec]) -> bool:
    """Whether every gateway (an execnet ``XSpec``) is a plain popen: a process of this machine, with this
    temp folder and options, so the controller's live phase (run/live/) can make the run's calls for
    it and write the cassettes where it replays them."""
    return all(spec.popen and not spec.env and not spec.chdir and not spec.via for spec in specs)


def lock_scope(spec: XSpec) -> tuple[str | bool | None, ...]:
    """What makes workers open the same rate-limit state file: the machine and account a gateway (an
    execnet ``XSpec``) runs on, and its temp folder. Telling apart two gateways that do share a file
    only lowers the rate, so everything that may change machine, account or temp folder counts."""
    return (
        spec.via,
        spec.ssh,
        spec.ssh_config,
        spec.socket,
        spec.vagrant_ssh,
        *(spec.env.get(name) for name in ("TMPDIR", "TEMP", "TMP")),
    )


def split_rate(rate: Rate, sizes: Sequence[int]) -> list[Rate]:
    """Each group's share of ``rate``, by its number of workers.

    With a whole number of requests per period and at least one for each group, the shares are whole:
    one each, the rest in proportion (largest remainders). Then no window of one period holds more
    slots than the rate allows, whatever the groups' phases (a limiter of k per period books slots a
    k-th of a period apart). Otherwise the shares are fractions: the long-run rate holds, but a window
    may hold one slot more per group.
    """
    total, count = sum(sizes), float(rate.count)
    if not count.is_integer() or count < len(sizes):
        return [Rate(count * size / total, rate.per_seconds) for size in sizes]
    rest = int(count) - len(sizes)
    exact = [rest * size / total for size in sizes]
    counts = [int(share) for share in exact]
    by_remainder = sorted(range(len(sizes)), key=lambda i: counts[i] - exact[i])  # stable: ties by order
    for index in by_remainder[: rest - sum(counts)]:
        counts[index] += 1
    return [Rate(float(1 + whole), rate.per_seconds) for whole in counts]


class _Controller:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.written = 0
        self.failures: list[str] = []

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: XdistNode) -> None:
        """Before a worker starts: its group's share of every --wsb-rate (xdist's specs are expanded by now)."""
        scopes = [lock_scope(spec) for spec in node.nodemanager.specs]
        groups = list(dict.fromkeys(scopes))
        mine = groups.index(lock_scope(node.gateway.spec))
        sizes = [scopes.count(group) for group in groups]
        node.workerinput[_RATES] = {
            name: [share.count, share.per_seconds]
            for name, share in ((name, split_rate(rate, sizes)[mine]) for name, rate in self.settings.rates.items())
        }

    @pytest.hookimpl(wrapper=True)
    def pytest_report_from_serializable(
        self, config: pytest.Config, data: dict[str, Any]
    ) -> Generator[
        None, pytest.CollectReport | pytest.TestReport | None, pytest.CollectReport | pytest.TestReport | None
    ]:
        """A worker sends an item's payload as JSON text (see ``_Worker``): the report gets it back as data."""
        from pytest_websearchbench.reporting.results import REPORT_PAYLOAD  # imported by xdist runs only

        if isinstance(data.get(REPORT_PAYLOAD), str):
            data[REPORT_PAYLOAD] = json.loads(data[REPORT_PAYLOAD])
        return (yield)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        cassette = getattr(report, _CASSETTE, None)
        if cassette is None or not self.settings.record_mode.may_record:
            return
        folder = self.settings.cassette_dir
        target = folder / cassette["path"]
        try:
            if not target.resolve().is_relative_to(folder.resolve()):
                raise OSError(f"{cassette['path']!r} is outside the cassette folder")
            if target.is_file() and target.read_text("utf-8") == cassette["text"]:
                return  # the worker shares this folder, or recorded what is there already
            write_text_atomic(target, cassette["text"])
            self.written += 1
        except OSError as exc:
            self.failures.append(f"{target}: {exc}")

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.written:
            terminalreporter.write_line(
                f"{self.written} cassettes recorded by xdist workers written to {self.settings.cassette_dir}"
            )
        if self.failures:
            # the line naming the file is kept whole (its length is its path's): below the count, two columns deeper
            terminalreporter.write_line(
                f"{len(self.failures)} cassettes recorded by xdist workers could not be written; the first:", red=True
            )
            terminalreporter.write_line(f"  {self.failures[0]}", red=True)


class _Worker:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        """The setup report of an item that recorded carries its cassette to the controller (a report
        attribute, not a user property: those also go into JUnit XML)."""
        report = yield
        run = getattr(item, "wsb_run", None)  # a benchmark item's (run/runner.py), after its setup
        if call.when == "setup" and run is not None and run.cassette == "recorded":
            path = Path(run.cassette_path)
            if path.is_relative_to(self.settings.cassette_dir):
                setattr(
                    report,
                    _CASSETTE,
                    {"path": path.relative_to(self.settings.cassette_dir).as_posix(), "text": path.read_text("utf-8")},
                )
        return report

    @pytest.hookimpl(wrapper=True)
    def pytest_report_to_serializable(
        self, config: pytest.Config, report: pytest.CollectReport | pytest.TestReport
    ) -> Generator[None, dict[str, Any] | None, dict[str, Any] | None]:
        """An item's payload (its raw answers, scored rows and figures: thousands of small values) leaves as
        one JSON text: execnet's serialiser and the controller's reader walk nested values in pure
        Python, the json module in C. Measured at 2,750 items under -n 2: see benchmarks/README.md."""
        from pytest_websearchbench.reporting.results import REPORT_PAYLOAD  # imported by xdist runs only

        data = yield
        if data is not None and isinstance(data.get(REPORT_PAYLOAD), dict):
            data[REPORT_PAYLOAD] = json.dumps(data[REPORT_PAYLOAD], separators=(",", ":"))
        return data
