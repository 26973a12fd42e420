"""The per-run reporter: gathers every item's record (on the xdist controller too), tells whether the
run completed, and writes the terminal summary (the suites' figures), the results file, the HTML report
and the run's entry in the release history."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Generator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_websearchbench.core.options import Settings
from pytest_websearchbench.reporting.ctrf import OutcomeLog
from pytest_websearchbench.reporting.figures import SuiteFigures, run_figures
from pytest_websearchbench.reporting.history import HistoryError, RunEntry, append_run, git_commit
from pytest_websearchbench.reporting.identity import run_identity
from pytest_websearchbench.reporting.json_results import RunResults, run_secrets, write_document
from pytest_websearchbench.reporting.regression import suite_verdicts, versus_verdicts
from pytest_websearchbench.reporting.results import CRASH_PHASE, Completeness, ItemMeta, ResultStore
from pytest_websearchbench.reporting.terminal import fold, summary_lines
from pytest_websearchbench.reporting.trends import entry_of
from pytest_websearchbench.run.collect import BenchmarkItem, describe_item, suite_path_of
from pytest_websearchbench.run.live.outcomes import spend_note, stopped_note
from pytest_websearchbench.run.session import RunState
from pytest_websearchbench.run.verdict_tests import is_verdict_test, report_verdicts

if TYPE_CHECKING:
    from pytest_websearchbench.reporting.regression import SuiteVerdict
    from pytest_websearchbench.run.distributed import XdistNode


class RunReporter:
    def __init__(self, config: pytest.Config, state: RunState) -> None:
        self.config = config
        self.state = state
        self.store = ResultStore(self._keeps_answers)
        self.verdicts: list[
            SuiteVerdict
        ] = []  # with a baseline: one per (suite, variant), judged at the end of the run
        self.declared: list[str] | None = None  # node ids of the run's benchmark items, once collected
        self.session: pytest.Session | None = None
        #: the verdict tests pytest's progress counts from the first test on (``pytest_runtest_logstart``), and
        #: whether the suites were judged at the end of the test loop (``pytest_runtestloop``)
        self.expected_verdicts: int | None = None
        self.judged = False
        self.interrupted: str | None = None
        self.suite_errors = 0
        self.stopped_workers: set[str] = set()  # xdist workers that stopped on an interrupt
        self.completeness: Completeness | None = None
        #: one line per report that could not be written (the file, the reason), and the reports' paths
        self.write_errors: list[str] = []
        self.unwritten: set[Path] = set()
        self.refusal = ""  # why the baseline could not be compared, known only at the end (its agent's snapshot)
        self.figures: list[SuiteFigures] | None = None  # the suites' figures, computed once at the end
        self.history_run: int | None = None  # the run's id in --wsb-history, once appended
        self.finished = False  # pytest_sessionfinish wrote every report (a Ctrl-C may cut it short)
        self.tests = OutcomeLog()  # every test's outcome as pytest counts it, verdict tests too (--wsb-ctrf)
        self.inspect_logs: list[Path] = []  # --wsb-inspect-log's files, one per suite and variant
        self.started = time.time()
        # an xdist worker's reports go to the controller, which keeps the records and reports the run
        self.worker = hasattr(config, "workerinput")

    def _keeps_answers(self, meta: ItemMeta) -> bool:
        """Whether an item's record keeps its provider's answer text: only where an output shows it (the results
        file with --wsb-json-raw, the HTML report, an Inspect log, a family's own files that read it)."""
        settings = self.state.settings
        return (
            settings.json_raw
            or settings.html_path is not None
            or settings.inspect_log_path is not None
            or self.state.families[meta.family].outputs_answers
        )

    @pytest.hookimpl(trylast=True)  # the store takes the payload off the report: every other plugin sees it first
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.worker:
            return
        if report.when == CRASH_PHASE and self._stopped(report):
            return  # interrupted, not crashed: the item stays without a result (the run is incomplete)
        if self.state.settings.ctrf_path:  # (kept for --wsb-ctrf only: a run's every test, to its end)
            self.tests.add(report)
        if is_verdict_test(report):
            return  # the suite's verdict, already among the run's verdicts
        self.store.add(report)

    def _stopped(self, report: pytest.TestReport) -> bool:
        worker = getattr(getattr(report, "node", None), "gateway", None)  # xdist's crash report names its worker
        return getattr(worker, "id", None) in self.stopped_workers

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: XdistNode, error: object) -> None:
        """xdist names the item a worker stopped on by Ctrl-C (or pytest.exit) a crash: remember that worker."""
        if error == "keyboard-interrupt":
            self.stopped_workers.add(node.gateway.id)

    def pytest_report_teststatus(self, report: pytest.TestReport) -> tuple[str, str, str] | None:
        """A benchmark item whose worker crashed is an error (DESIGN §3), not the failure xdist calls it."""
        if (
            report.when == CRASH_PHASE
            and not self._stopped(report)
            and suite_path_of(report.nodeid, self.config.rootpath)
        ):
            return "error", "E", "ERROR"
        return None

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """The run's items (without xdist: the xdist controller collects nothing)."""
        self.declared = [item.nodeid for item in session.items if isinstance(item, BenchmarkItem)]

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: XdistNode, ids: list[str]) -> None:
        """On the xdist controller: the items a worker collected (every worker collects the same)."""
        if self.declared is None:
            self.declared = [nodeid for nodeid in ids if suite_path_of(nodeid, self.config.rootpath)]

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed and suite_path_of(report.nodeid, self.config.rootpath):
            self.suite_errors += 1

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        self.interrupted = _interruption(excinfo)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session = session

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logstart(self, nodeid: str, location: tuple[str, int | None, str]) -> None:
        """Before the first test's progress is shown (its collection is over, an xdist controller's too): the
        verdict tests a baseline will add are counted in pytest's total, so its progress ends at 100 % after them
        and never goes back (one per suite and variant of the run's items, as ``suite_verdicts`` judges)."""
        if self.worker or self.expected_verdicts is not None or self.session is None:
            return
        self.expected_verdicts = 0
        if self.state.baseline is not None and self.declared:
            self.expected_verdicts = len(
                {(nodeid.split("::", 1)[0], nodeid.rpartition("[")[2]) for nodeid in self.declared}
            )
            self.session.testscollected += self.expected_verdicts

    @pytest.hookimpl(wrapper=True, trylast=True)  # inside the terminal's: its last progress figure comes after
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        """Every item has run (a loop cut short by an exception is judged at the session's end, as before): the
        suites are judged now, so that their verdict tests are shown before pytest's progress ends."""
        result = yield
        if not self.worker and not session.config.option.collectonly and not self.state.settings.dry_run:
            self._judge_and_report(session)
        return result

    @pytest.hookimpl(specname="pytest_sessionfinish", tryfirst=True)
    def pytest_sessionfinish_verdicts(self, session: pytest.Session) -> None:
        """Every item has reported: the suites are judged against the baseline, unless the test loop's end did,
        and each verdict is a test report of its own (before JUnit XML is written), so a regression is a failed
        test wherever the run's outcome is read."""
        if self.worker:
            return
        if not self.judged:
            self._judge_and_report(session)
        elif self.refusal:  # judged in the loop: the session's exit status was set since, from its test counts
            session.exitstatus = pytest.ExitCode.USAGE_ERROR

    def _judge_and_report(self, session: pytest.Session) -> None:
        self.judged = True
        for nodeid in self.store.crashed_unknown():
            meta = describe_item(self.config, nodeid)
            if meta is not None:
                self.store.add_crashed(nodeid, meta)
        self._judge(session)
        # the progress counted the verdicts expected: now the ones there are (100 %, never 101 % nor 97 %)
        session.testscollected += len(self.verdicts) - (self.expected_verdicts or 0)
        self.expected_verdicts = len(self.verdicts)
        if self.verdicts:
            report_verdicts(self.config, self.verdicts, self.store.records())

    @pytest.hookimpl(specname="pytest_sessionfinish", wrapper=True, tryfirst=True)
    def pytest_sessionfinish_interrupted(self, session: pytest.Session) -> Generator[None, None, None]:
        """A Ctrl-C while the session finishes (xdist waiting for its workers to stop, a plugin's slow teardown)
        escapes pytest as a traceback, and the hooks it cut short write nothing. It ends the run as interrupted
        instead: the reports not yet written are written (each whole or not at all), saying so."""
        try:
            return (yield)
        except KeyboardInterrupt:
            if self.worker:
                raise  # xdist reports a worker's interrupt to the controller (pytest_xdist_node_collection…)
            self.interrupted = "KeyboardInterrupt"
            session.exitstatus = pytest.ExitCode.INTERRUPTED
            if not self.finished:
                self.pytest_sessionfinish(session)
            _write_junit(self.config)
            terminal = self.config.pluginmanager.get_plugin("terminalreporter")
            if terminal is not None:
                terminal.write("\n")  # the progress line was left open: the summary that ends it never came
                terminal.write_line("interrupted while the session finished: the reports say the run is incomplete")
            return None

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.worker:
            return
        settings = self.state.settings
        self.completeness = self._completeness(session)
        if settings.dry_run:  # nothing ran: a report would only say so, and replace the last run's
            self.finished = True
            return
        if settings.json_path or settings.html_path or self._appends_history():
            self._write_files(settings)
        self._write_markdown(settings)
        if settings.ctrf_path:
            ctrf_path = settings.ctrf_path
            self._attempt(ctrf_path, lambda: self._write_ctrf(ctrf_path))
        if settings.inspect_log_path:
            self._write_inspect_logs(settings.inspect_log_path)
        for family in self.state.families.made():  # a family the run never used has nothing to write
            self._attempt(None, partial(family.write_outputs, self.store.records()))
        # exit 3, as the issue asks of every report alike (pytest's INTERNAL_ERROR): a report the run was asked
        # for is missing, which a failed test's exit 1 would not say; a usage error (4) or an interrupt stays
        if self.write_errors and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            session.exitstatus = pytest.ExitCode.INTERNAL_ERROR
        self.finished = True

    @pytest.hookimpl(tryfirst=True)  # before pytest's own unconfigure, whose gc.collect() walks what is still held
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        """Every output is written (the reports at the session's end, the terminal summary after them): the run's
        records, figures and verdicts go now. pytest keeps its plugins, and so this reporter, until the process
        ends; what it held would be walked by pytest's last garbage collections (its unraisable-exception check,
        at unconfigure and again at cleanup) and by the interpreter's at exit, about 60,000 objects at 2,750
        items. Nothing reads them after this hook."""
        self.store = ResultStore(self._keeps_answers)
        self.figures = None
        self.verdicts = []
        self.tests = OutcomeLog()

    def _attempt(self, path: Path | None, write: Callable[[], object]) -> None:
        """Write one report; when it fails (the folder was checked at the start, but it can still vanish, fill
        up or turn read-only) the run goes on to the next and keeps one line naming the file and the reason."""
        if path is not None and not Path(os.path.realpath(path)).parent.is_dir():
            # an output's folder is never made (core/options.py): the writer would make it, or say "File exists"
            folder = Path(os.path.realpath(path)).parent
            self.write_errors.append(f"cannot write {path}: the folder {folder} is not there any more")
            self.unwritten.add(path)
            return
        try:
            write()
        except OSError as exc:  # the atomic writer names its target, never its temp file
            self.write_errors.append(f"cannot write {path or exc.filename or 'an output file'}: {exc.strerror or exc}")
        except HistoryError as exc:  # checked at the start too; another program may have replaced it since
            self.write_errors.append(f"cannot append the run to the history: {exc}")
        else:
            return
        if path is not None:
            self.unwritten.add(path)

    def _write_files(self, settings: Settings) -> None:
        """The results file and the HTML report, from the run's results; no key reaches either."""
        assert self.completeness is not None, "pytest_sessionfinish tells the completeness first"
        results = RunResults.of_run(self.store.records(), settings, self.completeness, self.verdicts, self._figures())
        families = {name: self.state.families[name] for name in self._family_names()}
        secrets = self._secrets()
        if settings.json_path:
            json_path = settings.json_path
            self._attempt(json_path, lambda: write_document(json_path, results.to_dict(stream=True), secrets))
        if settings.html_path:
            # matplotlib and Jinja2 load only when a report is asked for
            from pytest_websearchbench.reporting.html.model import Source
            from pytest_websearchbench.reporting.html.render import write_report

            label = settings.json_path.name if settings.json_path else "this run"
            html_path = settings.html_path
            self._attempt(
                html_path, lambda: write_report(html_path, [Source(label, results)], families, secrets=secrets)
            )
        # appended once: a Ctrl-C after it writes the reports again, never a second run into the history
        if self._appends_history() and settings.history_path is not None and self.history_run is None:
            entry = entry_of(
                results,
                self._figures(),
                label=settings.label,
                git_commit=git_commit(self.config.rootpath),
                alpha=settings.alpha,
                min_effect=settings.min_effect,
            )
            history_path = settings.history_path
            self._attempt(history_path, lambda: self._append_history(history_path, entry, secrets))

    def _write_ctrf(self, path: Path) -> None:
        from pytest_websearchbench.core.atomic import write_text_atomic
        from pytest_websearchbench.core.secrets import value_scrubber
        from pytest_websearchbench.core.version import __version__
        from pytest_websearchbench.reporting.ctrf import ctrf_document

        document = ctrf_document(
            self.tests.outcomes(),
            self.store.records(),
            started=self.started,
            stopped=time.time(),
            pytest_version=pytest.__version__,
            plugin_version=__version__,
        )
        text = json.dumps(value_scrubber(self._secrets())(document), indent=1, ensure_ascii=False)
        write_text_atomic(path, text + "\n")

    def _write_inspect_logs(self, path: Path) -> None:
        """--wsb-inspect-log: one Inspect eval log per suite and variant beside ``path``, each written whole or
        not at all (a Ctrl-C that writes the reports again writes the same files)."""
        from pytest_websearchbench.core.secrets import value_scrubber
        from pytest_websearchbench.core.version import __version__
        from pytest_websearchbench.reporting.inspect_log import eval_logs, log_file, scrubbed, write_log

        done = self.completeness
        logs = eval_logs(
            self._figures(),
            run_id=self.state.run_id,
            started=self.started,
            stopped=time.time(),
            complete=done is not None and done.complete,
            plugin_version=__version__,
        )
        scrub = value_scrubber(self._secrets(), echoes=True)  # the answers shown keep a key that is a word of them
        for made in logs:
            target = log_file(path, made.suite, made.variant)
            self._attempt(target, partial(write_log, target, scrubbed(made.log, scrub)))
            if target not in self.inspect_logs:
                self.inspect_logs.append(target)

    def _append_history(self, path: Path, entry: RunEntry, secrets: list[str]) -> None:
        self.history_run = append_run(path, entry, secrets)

    def _write_markdown(self, settings: Settings) -> None:
        """--wsb-markdown, and GitHub Actions' step summary (appended: other steps write there too)."""
        step_summary = os.environ.get("GITHUB_STEP_SUMMARY")
        if not (settings.markdown_path or step_summary) or not self.store.records():
            return
        from pytest_websearchbench.core.atomic import write_text_atomic
        from pytest_websearchbench.core.secrets import scrub
        from pytest_websearchbench.reporting.markdown import markdown_summary

        secrets = self._secrets()
        done = self.completeness
        text = scrub(
            markdown_summary(
                self._figures(),
                baseline=str(settings.baseline_path or "") or None,
                incomplete=done.text() if done is not None else "",
            ),
            secrets,
        )
        if settings.markdown_path:
            markdown_path = settings.markdown_path
            self._attempt(markdown_path, lambda: write_text_atomic(markdown_path, text))
        if step_summary:
            self._attempt(Path(step_summary), lambda: _append_text(step_summary, text))

    def _secrets(self) -> list[str]:
        """Every key this run may hold (the registered ones are scrubbed besides)."""
        families = [self.state.families[name] for name in self._family_names()]
        return run_secrets(self.state.registry, families, os.environ)

    def _appends_history(self) -> bool:
        """A run with benchmark items (or suites that failed to collect) is appended; a --collect-only run,
        or one of other tests only, is not."""
        done = self.completeness
        return bool(
            self.state.settings.history_path
            and not self.config.option.collectonly
            and done is not None
            and (self.store.records() or self.declared or done.suite_errors)
        )

    def _figures(self) -> list[SuiteFigures]:
        """The suites' figures (the summary's and the history's), computed once."""
        if self.figures is None:
            names = self._family_names()
            families = {name: self.state.families[name] for name in names}
            settings = self.state.settings
            order = self.state.variant_order(names)
            self.figures = run_figures(
                self.store.records(),
                families,
                settings.k,
                order=order,
                verdicts=self.verdicts,
                same_endpoints=self.state.same_endpoints(),
                versus=versus_verdicts(
                    self.store.records(),
                    families,
                    settings.k,
                    list(order),
                    alpha=settings.alpha,
                    min_effect=settings.min_effect,
                    min_judged=settings.min_judged,
                    min_judged_drop=settings.min_judged_drop,
                ),
            )
        return self.figures

    def _family_names(self) -> list[str]:
        """The families of the run's items (on the xdist controller, which collects nothing, they are
        configured here, on first use)."""
        return list(dict.fromkeys(record.meta.family for record in self.store.records()))

    def _completeness(self, session: pytest.Session) -> Completeness:
        missing = sum(not self.store.finished(nodeid) for nodeid in self.declared or [])
        # -x / --maxfail without xdist stop the loop without an interrupt
        stopped = self.interrupted or session.shouldfail or session.shouldstop or None
        return Completeness(
            None if self.declared is None else len(self.declared),
            missing,
            stopped if stopped is None else str(stopped),
            self.suite_errors,
            self._selected_by(),
        )

    def _selected_by(self) -> tuple[str, ...]:
        """How the run chose a part of its suites' items: what a baseline made from it does not cover."""
        option = self.config.option
        chosen = [
            f"-k {option.keyword!r}" if getattr(option, "keyword", "") else "",
            f"-m {option.markexpr!r}" if getattr(option, "markexpr", "") else "",
            "--lf" if getattr(option, "lf", False) else "",
            *(f"--deselect {d}" for d in getattr(option, "deselect", None) or ()),
        ]
        return tuple(filter(None, chosen)) + self.selected_ids

    @property
    def selected_ids(self) -> tuple[str, ...]:
        """Items named by id on the command line (``suite::case[variant]``)."""
        return tuple(
            arg
            for arg in self.config.invocation_params.args
            if "::" in arg and not arg.startswith("-") and suite_path_of(arg, self.config.invocation_params.dir)
        )

    def _judge(self, session: pytest.Session) -> None:
        """The suite-level verdicts against the baseline; a significant drop fails the run."""
        state = self.state
        if state.baseline is None:
            return
        now = run_identity(self.store.records(), state.settings.k)["suites"]
        state.baseline.compare_with(now)
        # the agent model's snapshot is known once it answered: a baseline of another one is refused now,
        # without a verdict (the run's items ran, but their figures are not comparable)
        self.refusal = state.baseline.served_mismatch(now, state.settings.baseline_accept) or ""
        if self.refusal:
            session.exitstatus = pytest.ExitCode.USAGE_ERROR
            return
        self.verdicts = suite_verdicts(
            self.store.records(),
            state.families,
            state.settings.k,
            state.baseline,
            alpha=state.settings.alpha,
            min_effect=state.settings.min_effect,
            min_judged=state.settings.min_judged,
            min_judged_drop=state.settings.min_judged_drop,
            max_latency_regression=state.settings.max_latency_regression,
        )
        if any(v.failed for v in self.verdicts) and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.worker:
            return
        records = self.store.records()
        done = self.completeness
        # a --collect-only run runs nothing, and a run without benchmark items has none to miss: no news
        shown = (
            done is not None
            and not self.config.option.collectonly
            and not self.state.settings.dry_run
            and bool(records or self.declared or done.suite_errors)
        )
        incomplete = done.text() if shown and done is not None else ""
        if not records and not incomplete and not self.write_errors:
            return
        terminalreporter.write_sep("=", "websearchbench summary")
        settings = self.state.settings
        names = self._family_names()
        families = {name: self.state.families[name] for name in names}
        for line in summary_lines(self._figures(), families, self.state.baseline, self.verdicts, settings.cassette_dir):
            terminalreporter.write_line(line)
        # the notes under the tables: folded within the summary's width (reporting.terminal.fold), but for the
        # lines naming a file, kept whole (a path is never broken, and where it would push the words after it
        # depends on where the user runs)
        notes: list[tuple[str, bool]] = []
        if incomplete:
            notes.append((incomplete, True))
        if spend_note(self.config):  # the live phase's providers and models apart (the cost row: providers')
            notes.append((spend_note(self.config), False))
        if stopped_note(self.config):
            notes.append((stopped_note(self.config), True))
        if self.refusal:
            notes.append((self.refusal, True))
        for text, alarm in notes:
            for line in fold(text):
                terminalreporter.write_line(line, red=alarm, bold=alarm)
        for line in self.write_errors:
            terminalreporter.write_line(line, red=True, bold=True)
        if self.state.settings.json_path and self.state.settings.json_path not in self.unwritten:
            note = " (marked incomplete: a baseline only with --wsb-baseline-accept=incomplete)" if incomplete else ""
            terminalreporter.write_line(f"results written to {self.state.settings.json_path}{note}")
        if self.state.settings.html_path and self.state.settings.html_path not in self.unwritten:
            terminalreporter.write_line(f"HTML report written to {self.state.settings.html_path}")
        if self.state.settings.markdown_path and self.state.settings.markdown_path not in self.unwritten:
            terminalreporter.write_line(f"Markdown summary written to {self.state.settings.markdown_path}")
        if self.state.settings.ctrf_path and self.state.settings.ctrf_path not in self.unwritten:
            terminalreporter.write_line(f"CTRF report written to {self.state.settings.ctrf_path}")
        for log in self.inspect_logs:
            if log not in self.unwritten:
                terminalreporter.write_line(f"Inspect log written to {log}")
        if self.history_run is not None:
            from pytest_websearchbench.core.secrets import scrub

            label = f" ({scrub(settings.label, self._secrets())})" if settings.label else ""
            note = " (marked incomplete)" if incomplete else ""
            terminalreporter.write_line(f"run {self.history_run}{label} appended to {settings.history_path}{note}")


def _append_text(path: str, text: str) -> None:
    """Append to a file other steps write too (GitHub Actions' step summary): never replaced, so not atomic."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(text)


def _write_junit(config: pytest.Config) -> None:
    """--junitxml's file, written by its own plugin as its pytest_sessionfinish does (again, if it had: the same
    reports): the hook a Ctrl-C cut short may have been the one that writes it."""
    from _pytest.junitxml import xml_key  # pytest's key for its JUnit writer (no public accessor)

    xml = config.stash.get(xml_key, None)
    if xml is not None:
        xml.pytest_sessionfinish()


def _interruption(excinfo: pytest.ExceptionInfo[BaseException]) -> str:
    """Why the run stopped: ``KeyboardInterrupt`` for Ctrl-C, else the reason pytest.exit or pytest and
    pytest-xdist gave their interrupt (e.g. ``Interrupted: stopping after 1 failures``)."""
    if type(excinfo.value) is KeyboardInterrupt:
        return "KeyboardInterrupt"
    reason = getattr(excinfo.value, "msg", None) or str(excinfo.value)
    return f"{excinfo.typename}: {reason}" if reason else excinfo.typename
