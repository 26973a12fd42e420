"""What every benchmark family provides: load a suite, run a case, score it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pytest_websearchbench.core.models import Hit, Page
from pytest_websearchbench.core.options import OptionValues, Settings
from pytest_websearchbench.core.suites import SuiteManifest


class SearchProvider(Protocol):
    """What a family asks of the provider under test (``providers.base.Provider`` is one): the core
    names the shape, so it need not import the providers it sits under.

    Examples:
        A family's helpers are typed against it; any ``Provider`` fits:

        >>> from pytest_websearchbench.api import Hit, Provider, SearchProvider
        >>> def top_urls(provider: SearchProvider, query: str, k: int) -> list[str]:
        ...     return [hit.url for hit in provider.search(query, k)]
        >>> class Pair(Provider):
        ...     def search(self, query, k):
        ...         urls = ["https://example.org/a", "https://example.org/b"]
        ...         return [Hit(rank, url, query, "") for rank, url in enumerate(urls[:k], start=1)]
        >>> top_urls(Pair(), "tide tables", 1)
        ['https://example.org/a']
    """

    name: str

    @property
    def calls(self) -> list[Any]:
        """The provider's ``CallRecord``s (the core does not import the providers)."""

    def search(self, query: str, k: int) -> list[Hit]: ...

    def fetch(self, url: str) -> Page: ...


@dataclass(frozen=True)
class Case:
    """One benchmark item. ``markers`` become pytest marks, ``keywords`` extra ``-k`` words.

    Examples:
        What a family's ``load`` makes of each row; ``data`` is the family's own (a dict, a dataclass):

        >>> from pytest_websearchbench.api import Case
        >>> row = {"id": "tides-004", "question": "When is high water?", "answer": "06:12", "lang": "en"}
        >>> case = Case(row["id"], row, markers=("harbour",), keywords=(row["lang"],))
        >>> case.id, case.data["answer"], case.markers, case.keywords
        ('tides-004', '06:12', ('harbour',), ('en',))
    """

    id: str
    data: Any
    markers: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class Suite:
    """A loaded suite, what a family's ``load`` returns: its manifest, its cases in order, the ``digest`` of the
    files they came from (a part of the run's identity: a baseline of other files is refused) and ``context``,
    the family's data every case shares (LexBench's grades).

    Examples:
        >>> from pathlib import Path
        >>> from pytest_websearchbench.api import Case, Suite, SuiteManifest
        >>> manifest = SuiteManifest(Path("suites/tides/suite.json"), "tides", "2025.1", "answers", "", {})
        >>> cases = (Case("tides-001", {"answer": "06:12"}), Case("tides-002", {"answer": "12:30"}))
        >>> suite = Suite(manifest, cases, digest="sha256:0f3a", context={"port": "Harbourton"})
        >>> suite.name, [case.id for case in suite.cases]
        ('tides', ['tides-001', 'tides-002'])
    """

    manifest: SuiteManifest
    cases: tuple[Case, ...]
    digest: str
    context: Any = None  # family-specific data shared by all cases (e.g. grades)

    @property
    def name(self) -> str:
        return self.manifest.name


@dataclass
class RawResults:
    """What a provider (or agent) gave back for one case, exactly as it came.

    ``extra`` holds family-specific raw material (an agent's answer and trace, a verdict's
    evidence); it must be JSON-serialisable because it travels to the results file.

    Examples:
        What a family's ``run`` returns, and a replay reads back:

        >>> from pytest_websearchbench.api import Hit, RawResults
        >>> hit = Hit(1, "https://example.org/tides", "Tide tables", "High water at 06:12.")
        >>> raw = RawResults(queries=["tide tables"], hits=[hit], extra={"answer": "06:12"})
        >>> RawResults.from_dict(raw.to_dict()) == raw
        True
        >>> sorted(raw.to_dict())
        ['extra', 'hits', 'pages', 'queries']
    """

    queries: list[str] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    pages: list[Page] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    #: what the servers of the case's own calls said they served, by identity field (``core.options.AGENT_SERVED``: the
    #: agent model's snapshots as its answers named them); the runner keeps it on the item's record (not here)
    served: dict[str, list[str]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "queries": self.queries,
            "hits": [h.to_dict() for h in self.hits],
            "pages": [p.to_dict() for p in self.pages],
            "extra": self.extra,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RawResults:
        """``to_dict``'s inverse (``served`` is not in it: the runner keeps it on the item's record)."""
        return cls(
            list(data.get("queries") or []),
            [Hit(**hit) for hit in data.get("hits") or []],
            [Page(**page) for page in data.get("pages") or []],
            dict(data.get("extra") or {}),
        )


@dataclass(frozen=True)
class RunContext:
    """What ``run`` may use: the provider under test (None for families that need none),
    the item's variant (the provider's or agent's name) and the run's settings. ``recorded_live``: this run's
    live phase recorded the item's own cassette (``BenchmarkFamily.live_cassette``), which ``run`` replays.

    Examples:
        A family's ``run`` asks the provider under test for the run's result budget:

        ```python
        from pytest_websearchbench.api import BenchmarkFamily, Case, RawResults, RunContext, Suite


        class Answers(BenchmarkFamily):
            def run(self, suite: Suite, case: Case, ctx: RunContext) -> RawResults:
                question = case.data["question"]
                hits = ctx.provider.search(question, ctx.k)  # ctx.k: the run's --wsb-k
                return RawResults(queries=[question], hits=hits, extra={"asked": ctx.variant})
        ```
    """

    provider: SearchProvider | None
    variant: str
    settings: Settings
    recorded_live: bool = False

    @property
    def k(self) -> int:
        return self.settings.k


@dataclass(frozen=True)
class Score:
    """A case's verdict: pass/fail, metrics (float), and per-result details for reports.

    ``primary`` names the metric a baseline compares (the family's first column); it travels
    with the score from the worker that ran the item to the reports. ``details`` are what the item's
    entry in the results file says beside its metrics, in the family's own words (JSON values, no
    metric: LexBench's ``unjudged``, the top-k URLs nobody has graded); empty, the entry has none.

    Examples:
        What a family's ``score`` returns; the worker sends ``to_dict`` to the reports:

        >>> from pytest_websearchbench.api import Score
        >>> score = Score(
        ...     passed=False,
        ...     metrics={"found": 0.0, "rr": 0.0},
        ...     message="'06:12' is in no top-5 snippet",
        ...     primary="found",
        ...     details={"closest": "06:21"},
        ... )
        >>> score.metrics[score.primary]
        0.0
        >>> Score.from_dict(score.to_dict()) == score
        True
    """

    passed: bool
    metrics: dict[str, float]
    message: str = ""
    results: list[dict[str, Any]] = field(default_factory=list)
    primary: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "metrics": self.metrics,
            "primary": self.primary,
            "results": self.results,
            "message": self.message,
            "details": self.details,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Score:
        return cls(
            data["passed"],
            dict(data["metrics"]),
            data.get("message", ""),
            list(data.get("results", [])),
            data.get("primary", ""),
            dict(data.get("details") or {}),
        )


@dataclass(frozen=True)
class MetricColumn:
    """One metric of the summary's table, what a family's ``columns`` lists (the first is primary): ``key`` in
    ``Score.metrics`` and the ``label`` it is shown under.

    Examples:
        >>> from pytest_websearchbench.api import MetricColumn
        >>> columns = [MetricColumn("found", "found@5", error_value=0.0), MetricColumn("seconds", "time (s)")]
        >>> [column.label for column in columns]
        ['found@5', 'time (s)']
        >>> [column.error_value for column in columns]  # an errored item counts 0; is left out
        [0.0, None]
    """

    key: str
    label: str
    #: what an errored item counts as in the headline mean (the benchmark's population rule: 0 for
    #: scores); None leaves errored items out (a count, a cost, a metric that applies to some items only)
    error_value: float | None = None
    #: the terminal summary shows the metric times this (LexBench's --wsb-scale=100: the article's 0–100
    #: scale); every other output keeps the fraction
    scale: float = 1.0


@dataclass(frozen=True)
class Drilldown:
    """An item's drill-down in the HTML report: a Jinja2 template (autoescaped) in the family's own
    package, and the values it is rendered with, taken from the item's entry in the results file; and how
    the item failed in the family's words (the report's failure-mode filter; "" when it did not fail).

    Examples:
        A family's ``drilldown`` reads the item's entry in the results file, tolerating an older file's
        missing fields:

        >>> from pytest_websearchbench.api import Drilldown
        >>> def answers_drilldown(item):
        ...     extra = (item.get("raw") or {}).get("extra") or {}
        ...     failure = "wrong answer" if item.get("outcome") == "failed" else ""
        ...     return Drilldown("answers_drilldown.html.j2", {"answer": extra.get("answer", "")}, failure)
        >>> answers_drilldown({"outcome": "failed", "raw": {"extra": {"answer": "06:30"}}})
        Drilldown(template='answers_drilldown.html.j2', context={'answer': '06:30'}, failure_mode='wrong answer')
        >>> answers_drilldown({}).context
        {'answer': ''}
    """

    template: str
    context: dict[str, Any]
    failure_mode: str = ""


@dataclass(frozen=True)
class CaseSample:
    """What a case puts to the provider or agent and what its grading looks for, in the benchmark's words: an
    Inspect log's sample (--wsb-inspect-log). ``input`` is the query, the ticket or the brief as the item asks
    it; ``target`` the answer, or the answers any of which will do (a list).

    Examples:
        >>> from pytest_websearchbench.api import CaseSample
        >>> CaseSample("When is high water in Harbourton?", target=["06:12", "6:12 am"]).to_dict()
        {'input': 'When is high water in Harbourton?', 'target': ['06:12', '6:12 am']}
    """

    input: str
    target: str | list[str] = ""

    def to_dict(self) -> dict[str, Any]:
        return {"input": self.input, "target": self.target}


@dataclass(frozen=True)
class OwnCassette:
    """The cassette an item of a family that keeps its own (``records_traffic`` False) records its calls
    into, as its ``run`` would open it: the live phase captures the item's calls there instead, so the test
    replays them (``BenchmarkFamily.live_cassette``)."""

    path: Path
    aliases: dict[str, str]
    secrets: list[str]
    produced_by: dict[str, str]


@dataclass(frozen=True)
class Coverage:
    """How much of an item's answer could be graded: ``metric`` the graded share (0–1), ``pages`` the key of
    ``Score.details`` that lists the answer's ungraded pages."""

    metric: str
    pages: str


class BenchmarkFamily(ABC):
    """A benchmark family: how a suite's files become cases (``load``), how a case runs against its variant
    (``run``, the test's only I/O), how what came back is scored (``score``, pure) and which metrics the summary
    shows (``columns``); every other method has a default.

    Examples:
        A family whose items are questions with a short answer, found or not in a top-k snippet:

        ```python
        import hashlib
        import json

        from pytest_websearchbench.api import (
            BenchmarkFamily, Case, MetricColumn, RawResults, RunContext, Score, Suite, SuiteManifest,
        )


        class Answers(BenchmarkFamily):
            name = "answers"

            def load(self, manifest: SuiteManifest) -> Suite:
                path = manifest.file("items")
                rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
                digest = "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()
                return Suite(manifest, tuple(Case(row["id"], row) for row in rows), digest)

            def run(self, suite: Suite, case: Case, ctx: RunContext) -> RawResults:
                hits = ctx.provider.search(case.data["question"], ctx.k)
                return RawResults(queries=[case.data["question"]], hits=hits)

            def score(self, suite: Suite, case: Case, raw: RawResults, k: int) -> Score:
                found = any(case.data["answer"] in hit.snippet for hit in raw.hits[:k])
                return Score(passed=found, metrics={"found": float(found)}, primary="found")

            def columns(self, kind: str, k: int) -> list[MetricColumn]:
                return [MetricColumn("found", f"found@{k}", error_value=0.0)]
        ```
    """

    name: str = ""
    #: False for families whose traffic is local and not worth recording (e.g. a world server)
    records_traffic: bool = True
    #: False for families whose items have no result cutoff (the summary's title then shows no k)
    uses_k: bool = True
    #: False for families whose ``write_outputs`` never reads the providers' answer text (the raw hits and pages,
    #: the scored rows' titles and snippets of them): a run that shows it nowhere else drops it from its records
    outputs_answers: bool = True

    def configure(self, options: OptionValues, settings: Settings) -> BenchmarkFamily:
        """The family configured for this run from the options it declares (``<family>/options.py``, each
        value already checked against its ``Option``): the checks that need more than one value, the
        environment or other plugins (raise ConfigurationError). Called once, before ``load``: at startup
        when the run names a suite of the family or sets one of its options, else when the run first
        meets one of its suites."""
        return self

    def variants(self, settings: Settings) -> tuple[str, ...]:
        """What each case runs against, one item each: by default the providers under test."""
        return settings.providers

    def repeats(self) -> int:
        """How many runs of each case this run makes (``--wsb-repeat``: items ``<case>@1`` … ``<case>@N``);
        the verdict against a baseline pairs cases, each valued by the mean of its runs."""
        return 1

    def coverage(self, kind: str) -> Coverage | None:
        """For runs of ``kind`` whose answers may hold pages nobody graded (LexBench's scenarios): the per-item
        metric that says what share of an answer is graded, and the ``Score.details`` key listing the rest. A
        verdict over answers with holes is inconclusive. None (the default): every answer is graded."""
        return None

    def run_label(self, suite: Suite) -> str:
        """What the summary and results file call this run of the suite (the ``kind`` column):
        the manifest's kind by default; a family with run modes names the mode."""
        return suite.manifest.kind

    def identity(self, suite: Suite | None = None) -> dict[str, str]:
        """What this run of the family is, besides its suites' edition and digest and the run's k, by identity
        field (``core.options.IDENTITY_FIELDS``): a part of the run's identity that a baseline must match. Without ``suite``
        what the options ask for, known at the start (the agent model, the mode, the board): a baseline that
        differs is refused before anything runs; with one, that and what the suite's files say besides (its
        grades' digest, their judges). None by default."""
        return {}

    def cassette_folder(self, variant: str) -> str:
        """The folder (under the suite's) of a variant's cassettes; a family with several run
        modes gives each its own, so that switching modes never makes a cassette stale."""
        return variant

    def cassette_aliases(self) -> dict[str, str]:
        """Run-specific base URLs of the family's own HTTP traffic (e.g. a model), real → alias."""
        return {}

    def secrets(self) -> list[str]:
        """Values of the family's own traffic that must never reach a cassette (API keys)."""
        return []

    def live_cassette(self, suite: Suite, case: Case, variant: str, settings: Settings) -> OwnCassette | None:
        """For a family that keeps its own cassettes (``records_traffic`` False): the cassette of an item whose
        calls a recording run makes in its live phase (run/live/), or None (the item is not worked live).
        Its ``run`` must then, while a capture is active (``cassettes.capture.capture_active``: the live phase's,
        or the test's on a gateway elsewhere, run/runner.py), make its calls without opening a cassette of its
        own, and otherwise replay them: it is never told the record mode (``Settings.calls_out`` says whether
        the run calls out at all)."""
        return None

    def works_at_once(self, suite: Suite, case: Case, variant: str, settings: Settings) -> bool:
        """For a family that keeps its own cassettes: whether an item is worked before the tests, many at once
        (run/live/: up to ``--wsb-concurrency``, ``EPISODES_AT_ONCE`` by default), in every record mode: an item
        whose time goes to waiting on things outside Python (a program, a browser). Its ``run`` is then called
        on a live-phase thread and its test is handed the ``RawResults`` (or the error) it came to."""
        return False

    def provider_calls(self, case: Case | None = None) -> dict[str, int]:
        """The most provider calls of each kind (``search``, ``fetch``) one item of this run may make (of
        ``case``; without one, of any): what each provider under test must be able to do (a kind it cannot do
        is a usage error before any call, run/preflight.py) and a dry run's worst case. One search by
        default; none for a family whose items call no provider (``records_traffic`` False)."""
        return {"search": 1} if self.records_traffic else {}

    def model_calls(self, case: Case | None = None) -> int:
        """The most model calls one item of this run may make (an agent's turns); 0: it calls no model."""
        return 0

    def record_args(self) -> str:
        """Options (with a leading space) a user needs to re-record one item of this run."""
        return ""

    def recognizes(self, record: Any) -> str | None:
        """For a suite file given without a manifest: the kind of suite whose first record (or
        JSON document) looks like ``record``, or None when it is not this family's."""
        return None

    #: how a suite file of this family given without a manifest is told apart (for error messages)
    file_format: str = ""

    @abstractmethod
    def load(self, manifest: SuiteManifest) -> Suite:
        """Read and validate the suite's files; raise SuiteError naming file, line and field."""

    @abstractmethod
    def run(self, suite: Suite, case: Case, ctx: RunContext) -> RawResults:
        """Ask the provider (the only I/O of a test)."""

    @abstractmethod
    def score(self, suite: Suite, case: Case, raw: RawResults, k: int) -> Score:
        """Pure: gates and metrics from the case, the raw results and the suite's grades."""

    @abstractmethod
    def columns(self, kind: str, k: int) -> list[MetricColumn]:
        """Metrics shown in the summary for a run labelled ``kind`` (``run_label``), in order;
        the first is the primary metric."""

    def variant_listing(self, hook: Any) -> tuple[str, list[tuple[str, str]]] | None:
        """For ``pytest --wsb-list``, when the items run against something other than the providers (WebBench:
        its agents, a plugin's among them through ``hook``, the session's plugin hooks): a heading naming the
        option that chooses them, and each name with a line of help; None (the default): the providers."""
        return None

    def summary_rows(self, scores: list[list[Score]]) -> list[tuple[str, list[str]]]:
        """Extra summary rows (label, one cell per variant) from each variant's item scores;
        none by default."""
        return []

    def drilldown(self, item: dict[str, Any]) -> Drilldown | None:
        """The HTML report's view of one item of a results file (an entry of ``--wsb-json``'s ``items``,
        which may come from an older run: tolerate missing fields); None shows the generic view only."""
        return None

    def case_sample(self, suite: Suite, case: Case) -> CaseSample:
        """What ``case`` asks and what answers it (``CaseSample``), for --wsb-inspect-log: by default its id,
        with no target."""
        return CaseSample(case.id)

    def write_outputs(self, records: list[Any]) -> None:  # noqa: B027 (optional: most families write none)
        """At the end of the run (on the xdist controller): write the family's own result files
        from every item's record (``reporting.results.ItemRecord``); none by default."""
