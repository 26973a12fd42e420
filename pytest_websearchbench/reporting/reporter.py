"""The per-run reporter: gathers every item's record (on the xdist controller too) and writes
the terminal summary and the results file."""

from __future__ import annotations

import pytest

from pytest_websearchbench.core.session import RunState
from pytest_websearchbench.reporting.json_results import write_results
from pytest_websearchbench.reporting.regression import suite_verdicts
from pytest_websearchbench.reporting.results import ResultStore
from pytest_websearchbench.reporting.terminal import summary_lines


class RunReporter:
    def __init__(self, config: pytest.Config, state: RunState) -> None:
        self.config = config
        self.state = state
        self.store = ResultStore()
        self.verdicts = []  # with a baseline: one per (suite, provider), judged at the end of the run

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.store.add(report)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        settings = self.state.settings
        if hasattr(self.config, "workerinput"):
            return
        self._judge(session)
        if settings.json_path:
            write_results(settings.json_path, self.store.records(), settings, self.verdicts)
        for family in self.state.families.values():
            family.write_outputs(self.store.records())

    def _judge(self, session: pytest.Session) -> None:
        """The suite-level verdicts against the baseline; a significant drop fails the run."""
        state = self.state
        if state.baseline is None:
            return
        self.verdicts = suite_verdicts(self.store.records(), state.families, state.settings.k, state.baseline,
                                       alpha=state.settings.alpha, min_effect=state.settings.min_effect)
        if any(v.failed for v in self.verdicts) and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter) -> None:
        records = self.store.records()
        if not records:
            return
        terminalreporter.write_sep("=", "websearchbench summary")
        settings = self.state.settings
        for line in summary_lines(records, self.state.families, settings.k, self.state.baseline,
                                  self.state.variant_order, self.verdicts, settings.cassette_dir):
            terminalreporter.write_line(line)
        if self.state.settings.json_path:
            terminalreporter.write_line(f"results written to {self.state.settings.json_path}")
