"""The flow of one test: run the case through its cassette (setup), then score and judge it (call).

A provider that fails, or a cassette that is missing in replay mode, makes the item an
*error* (it happens in setup); a gate or a baseline regression makes it a *failure*.
"""

from __future__ import annotations

import shlex
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import pytest

from pytest_websearchbench.cassettes.persister import CassetteWriteError, UnreadableCassetteError
from pytest_websearchbench.cassettes.recorder import (
    StaleCassetteError,
    cassette_mismatch_error,
    once_replays,
    use_cassette,
)
from pytest_websearchbench.core.exceptions import WebSearchBenchError
from pytest_websearchbench.core.family import RawResults, RunContext
from pytest_websearchbench.core.options import CassetteMode, Settings
from pytest_websearchbench.core.secrets import text_scrubber
from pytest_websearchbench.providers import ProviderPool
from pytest_websearchbench.reporting.baseline import KNOWN, REGRESSED, Baseline
from pytest_websearchbench.reporting.junit import metric_properties
from pytest_websearchbench.reporting.results import REPORT_PAYLOAD, ItemRun, report_payload, served_by
from pytest_websearchbench.run.item_paths import cassette_for, rerecord_command, suite_argument
from pytest_websearchbench.run.live.outcomes import (
    FAILED,
    SKIPPED,
    WORKED,
    live_outcome,
    provider_failure,
    worked_live,
)
from pytest_websearchbench.run.session import provider_pool, run_state

if TYPE_CHECKING:
    from pytest_websearchbench.core.family import OwnCassette, Score
    from pytest_websearchbench.reporting.baseline import ItemVerdict
    from pytest_websearchbench.reporting.results import ItemMeta
    from pytest_websearchbench.run.spec import ItemSpec

#: provider failures that come from the content of an answer (not from reaching the provider)
ANSWER_ERRORS = ("bad_response", "malformed_json")


@runtime_checkable
class _BenchmarkItem(Protocol):
    """What this module uses of a benchmark item (``run.collect.BenchmarkItem``, which imports this module:
    named here by its shape)."""

    config: pytest.Config
    user_properties: list[tuple[str, object]]
    spec: ItemSpec
    session: pytest.Session
    wsb_meta: ItemMeta
    wsb_raw: RawResults | None
    wsb_run: ItemRun | None
    wsb_score: Score | None
    wsb_verdict: ItemVerdict | None


def setup_case(item: _BenchmarkItem) -> None:
    """The setup of a benchmark item: its run through its cassette (``item.wsb_raw``), with the session's
    providers. No fixture does it: pytest's fixture machinery cost more an item than a replay's own work."""
    item.wsb_raw = run_case(item, run_state(item.config).settings, _tests_pool(item))


_TESTS_POOL = pytest.StashKey[ProviderPool]()


def _tests_pool(item: _BenchmarkItem) -> ProviderPool:
    """The providers the tests ask, made with the first item (after a live phase: replay only) and closed
    when the session's last test is torn down, as a session fixture's would be."""
    config = item.config
    pool = config.stash.get(_TESTS_POOL, None)
    if pool is None:
        pool = config.stash[_TESTS_POOL] = provider_pool(config, live=not worked_live(config))
        item.session.addfinalizer(pool.close)
    return pool


def run_case(item: _BenchmarkItem, settings: Settings, pool: ProviderPool) -> RawResults:
    """Ask the provider for this item, through the item's cassette; record how it went (``item.wsb_run``,
    filled as it goes: a failure leaves what happened so far)."""
    spec = item.spec
    path = cassette_for(spec, settings)
    run = item.wsb_run = ItemRun(cassette_path=str(path))
    mode = settings.record_mode
    live = live_outcome(item.config, item.wsb_meta.key)
    if live is not None:  # worked before the tests ran (run/live/): replay what it recorded, or its error
        if live.status == FAILED:
            item.wsb_run = ItemRun.from_dict(live.run)
            pytest.fail(live.message, pytrace=False)
        if live.status == SKIPPED:
            pytest.skip(live.message)
        if live.status == WORKED:  # worked at once (``BenchmarkFamily.works_at_once``): what it came to
            item.wsb_run = ItemRun.from_dict(live.run)
            return RawResults.from_dict(item.wsb_run.raw or {})
        mode = CassetteMode.NONE
    elif worked_live(item.config):
        mode = CassetteMode.NONE  # reused by the live phase (once: its cassette exists): replayed, no key needed
    elif spec.family.records_traffic and mode is CassetteMode.NONE and not path.is_file():
        run.error = f"no cassette at {path}"
        pytest.fail(
            f"{spec.label}: no cassette at {path} and --wsb-record-mode=none forbids recording.\n"
            f"Record it with: pytest --suite {shlex.quote(suite_argument(spec.suite.manifest))} --provider "
            f"{spec.variant}{spec.family.record_args()}{settings.cassette_args()} "
            f"--wsb-record-mode=once -k '{spec.case.id}'",
            pytrace=False,
        )
    cassette = calls = None
    try:
        if not spec.family.records_traffic:  # the family's own cassette (``BenchmarkFamily.live_cassette``)
            context = RunContext(None, spec.variant, settings, recorded_live=live is not None)
            # replayed, but where no live phase ran (``mode`` records only there: a gateway elsewhere)
            own = spec.family.live_cassette(spec.suite, spec.case, spec.variant, settings) if mode.may_record else None
            if own is not None and not once_replays(own.path, settings.record_mode):
                raw = _record_own(spec, context, own, mode)
            else:
                raw = spec.family.run(spec.suite, spec.case, context)
            run.raw, run.served = raw.to_dict(), served_by((), raw.served)
            return raw
        provider = pool.get(spec.variant)
        first_call = len(provider.calls)
        failed = provider.failed_exchanges
        first_failed = len(failed)
        run.produced_by = provider.produced_by()
        try:
            with use_cassette(
                path,
                mode,
                aliases={**provider.cassette_aliases(), **spec.family.cassette_aliases()},
                secrets=[*provider.secrets(), *spec.family.secrets()],
                failed=lambda: failed[first_failed:],
                produced_by=run.produced_by,
            ) as cassette:
                raw = spec.family.run(spec.suite, spec.case, RunContext(provider, spec.variant, settings))
        finally:
            calls = run.calls = provider.calls[first_call:]
        run.cassette = cassette.status(len(calls))
        if live is not None:  # what the live phase recorded: its calls as they went, not as they replayed
            run.cassette, run.calls = "recorded", ItemRun.from_dict(live.run).calls
    except cassette_mismatch_error() as exc:
        run.error = f"request not in cassette {path}"
        # vcrpy's message once, inside ours: not again as the exception this one was raised handling
        raise pytest.fail.Exception(
            f"{spec.label}: a request is not in the cassette {path} (record mode "
            f"{settings.record_mode.value}); the cassette is stale: re-record it: "
            f"{rerecord_command(spec, settings)}\n{exc}",
            pytrace=False,
        ) from None
    except StaleCassetteError as exc:
        run.error, run.error_kind = str(exc), exc.kind
        raise pytest.fail.Exception(
            f"{spec.label}: {exc}; re-record it: {rerecord_command(spec, settings)}", pytrace=False
        ) from None
    except UnreadableCassetteError as exc:
        run.error, run.error_kind = str(exc), exc.kind
        raise pytest.fail.Exception(
            f"{spec.label}: {exc}; re-record it: {rerecord_command(spec, settings)}", pytrace=False
        ) from None
    except CassetteWriteError as exc:  # recorded in the test (no live phase): a full disk, a read-only folder
        run.error, run.error_kind = str(exc), exc.kind
        raise pytest.fail.Exception(f"{spec.label}: {exc}", pytrace=False) from None
    except WebSearchBenchError as exc:
        kind = getattr(exc, "kind", "error")
        if (
            kind in ANSWER_ERRORS
            and cassette is not None
            and cassette.played
            and calls is not None
            and cassette.status(len(calls)) == "replayed"
        ):
            # every answer came from the cassette: it is the cassette that holds what the adapter cannot read
            run.error = f"the cassette {path} holds an answer {spec.variant!r} cannot read: {exc}"
            run.error_kind = kind
            raise pytest.fail.Exception(
                f"{spec.label}: {run.error}; re-record it: {rerecord_command(spec, settings)}", pytrace=False
            ) from None
        run.error, run.error_kind = str(exc), kind
        # one line: the reason, without the chained provider exception repeated above it
        raise pytest.fail.Exception(provider_failure(spec, exc), pytrace=False) from None
    # what the servers said they served: read from the answers, replayed ones too (the run's identity)
    run.raw, run.served = raw.to_dict(), served_by(run.calls, raw.served)
    return raw


def _record_own(spec: ItemSpec, context: RunContext, own: OwnCassette, mode: CassetteMode) -> RawResults:
    """Record an item's own cassette in its test, as a provider's is recorded there (``use_cassette``), in the one
    case a test records: an xdist worker on a gateway elsewhere (``--tx ssh=…``), which no live phase serves, since
    its controller cannot write cassettes where the worker replays them (run/distributed.py ``on_this_machine``).
    Captured as the live phase captures (run/live/item.py): the family's ``run`` sees the capture active and
    opens no cassette of its own."""
    from pytest_websearchbench.cassettes.capture import Capture

    capture = Capture(own.path, mode, aliases=own.aliases, secrets=own.secrets, produced_by=own.produced_by)
    with capture.active():
        raw = spec.family.run(spec.suite, spec.case, context)
    capture.save([])  # its 429 and 5xx answers are dropped by the filters
    return raw


def check_case(item: _BenchmarkItem, raw: RawResults, settings: Settings, baseline: Baseline | None) -> None:
    """Score the raw results (pure), keep them for the summary, and judge: a failed gate fails the test,
    unless the baseline failed it too (a known failure: xfail); a baseline regression fails it."""
    spec = item.spec
    columns = spec.family.columns(spec.kind, settings.k)
    primary = columns[0].key
    score = item.wsb_score = replace(spec.family.score(spec.suite, spec.case, raw, settings.k), primary=primary)
    item.user_properties += metric_properties(score, columns)  # JUnit XML's (reporting/junit.py)
    verdict = item.wsb_verdict = (
        baseline.judge(item.wsb_meta.key, score.passed, score.metrics.get(primary), primary, settings.tolerance)
        if baseline
        else None
    )
    if verdict is not None and verdict.status == KNOWN:
        pytest.xfail(f"{spec.label}: {verdict.reason}")
    problems = [score.message] if not score.passed else []
    if verdict is not None and verdict.status == REGRESSED:
        problems.append(f"regressed against the baseline: {verdict.reason}")
    if problems:
        # within the terminal's width, imported by a failure only (a worker never needs the summary's module);
        # JUnit, CTRF and the results file read pytest's text as the terminal shows it
        from pytest_websearchbench.reporting.terminal import fold_message

        pytest.fail("\n".join(fold_message(f"{spec.label}: " + "\n".join(problems))), pytrace=False)


def attach_payload(item: _BenchmarkItem, report: pytest.TestReport) -> None:
    """Put on a benchmark item's report what its phase produced (setup: the run; call: the score and the
    baseline verdict), and which item it is on every report: the controller's ``ResultStore`` rebuilds the
    item's record from them, on an xdist controller too."""
    _scrub_report(item, report)
    setup, call = report.when == "setup", report.when == "call"
    setattr(
        report,
        REPORT_PAYLOAD,
        report_payload(
            item.wsb_meta,
            item.wsb_run if setup else None,
            item.wsb_score if call else None,
            item.wsb_verdict if call else None,
            _case_sample(item) if setup else None,
        ),
    )
    if report.when == "teardown":  # each part has left on its report: pytest keeps every item to the end
        item.wsb_raw = item.wsb_run = item.wsb_score = item.wsb_verdict = None


def _case_sample(item: _BenchmarkItem) -> dict[str, Any] | None:
    """What the item's case asks and what answers it, for --wsb-inspect-log only (the brief of a WebBench task
    is pages long: it travels to the xdist controller when a log is asked for)."""
    if run_state(item.config).settings.inspect_log_path is None:
        return None
    spec = item.spec
    return spec.family.case_sample(spec.suite, spec.case).to_dict()


def benchmark_test(item: _BenchmarkItem) -> None:
    """The body of every benchmark item (bound to it: pytest hands it no fixture)."""
    assert item.wsb_raw is not None, "setup_case ran the item"
    state = run_state(item.config)
    check_case(item, item.wsb_raw, state.settings, state.baseline)


def _scrub_report(item: _BenchmarkItem, report: pytest.TestReport) -> None:
    """No key reaches what pytest prints or writes of a report (the terminal, -rA, JUnit XML): a failure's
    text quotes what a provider or a model gave back (a model can write its key into its answer's code)."""
    scrubber = text_scrubber(item.spec.family.secrets(), echoes=True)  # a failure's table shows the answer
    if report.longrepr is not None:
        text = str(report.longrepr)
        clean = scrubber(text)
        if clean != text:
            report.longrepr = clean
    report.sections = [(title, scrubber(content)) for title, content in report.sections]
    if isinstance(getattr(report, "wasxfail", None), str):
        report.wasxfail = scrubber(report.wasxfail)
