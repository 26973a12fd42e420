"""Command-line options and ini keys, declared once each as an ``Option``, and the run's settings read from them.

Every option is also an ini key (``wsb_*``) so a project can pin its choices in
``[tool.pytest.ini_options]``; the command line wins over the ini file. The core's options are
``CORE_OPTIONS``; the model options every family that calls a model shares are ``MODEL_OPTIONS``;
each family declares its own in a light ``<family>/options.py`` (it imports only the core), so
that pytest can list and check every option without importing a family.
"""

from __future__ import annotations

import enum
import errno
import importlib.util
import os
import shlex
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_websearchbench.core.atomic import NotRegularFileError, file_kind, probe_folder, writable_target
from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.hub import LOCK_MODES
from pytest_websearchbench.core.policies import MAX_CONCURRENCY, Rate, RetryPolicy, parse_prices, parse_rates


class CassetteMode(str, enum.Enum):  # noqa: UP042 (StrEnum would change str() of a member)
    """vcrpy's record modes plus ``rewrite`` (drop the cassette and record it anew)."""

    NONE = "none"
    ONCE = "once"
    NEW_EPISODES = "new_episodes"
    ALL = "all"
    REWRITE = "rewrite"

    @property
    def may_record(self) -> bool:
        return self is not CassetteMode.NONE


# ---------------------------------------------------------------------------------------------- parsers
# A parser reads an option's text (stripped) into its value, or raises ConfigurationError naming the flag.


def text(value: str, flag: str) -> str:
    return value


def number(
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    inside: tuple[float, float] | None = None,
    whole: bool = False,
    optional: bool = False,
) -> Callable[[str, str], Any]:
    """The one number parser: a whole number (``whole``) or any, at least ``minimum`` and at most ``maximum``,
    or strictly ``inside`` an interval; "" is None when ``optional``."""

    def parse(value: str, flag: str) -> int | float | None:
        if optional and not value:
            return None
        try:
            found = int(value) if whole else float(value)
        except ValueError:
            found = None
        if found is None or found != found:  # nan is no number to compare with a bound
            raise ConfigurationError(f"{flag}: expected {'a whole number' if whole else 'a number'}, got {value!r}")
        if minimum is not None and found < minimum:
            raise ConfigurationError(f"{flag}: must be at least {minimum:g}, got {value}")
        if maximum is not None and found > maximum:
            raise ConfigurationError(f"{flag}: must be at most {maximum:g}, got {value}")
        if inside is not None and not inside[0] < found < inside[1]:
            raise ConfigurationError(f"{flag}: must be between {inside[0]:g} and {inside[1]:g}, got {value}")
        return found

    return parse


def share(value: str, flag: str) -> float | None:
    """A positive share written as a percentage (``25%``) or a fraction (``0.25``); "" is None. A bare number
    above 1 is refused: ``25`` is far likelier a percentage without its sign than +2,500 %."""
    if not value:
        return None
    percent = value.endswith("%")
    try:
        found = float(value.removesuffix("%").strip()) / (100 if percent else 1)
    except ValueError:
        found = None
    if found is None or not 0 < found < float("inf") or (not percent and found > 1):
        raise ConfigurationError(f"{flag}: expected a percentage (25%) or a share (0.25) above 0, got {value!r}")
    return found


def names(noun: str) -> Callable[[str, str], tuple[str, ...]]:
    """A comma-separated list of ``noun`` names: at least one, none twice."""

    def parse(value: str, flag: str) -> tuple[str, ...]:
        found = tuple(n.strip() for n in value.split(",") if n.strip())
        if not found:
            raise ConfigurationError(f"{flag}: give at least one {noun} name")
        if len(set(found)) != len(found):
            raise ConfigurationError(f"{flag}: a {noun} is named twice in {value!r}")
        return found

    return parse


def label(value: str, flag: str) -> str:
    """A run's label: one line without "@" (HISTORY@LABEL splits at the last one)."""
    if "@" in value or "\n" in value:
        raise ConfigurationError(
            f"{flag}: a label is one line without '@' (--wsb-baseline=HISTORY@LABEL), got {value!r}"
        )
    return value


def words(allowed: tuple[str, ...]) -> Callable[[str, str], frozenset[str]]:
    """A comma-separated set of words, each one of ``allowed``; "" is the empty set."""

    def parse(value: str, flag: str) -> frozenset[str]:
        found = frozenset(w.strip() for w in value.split(",") if w.strip())
        if found - set(allowed):
            raise ConfigurationError(
                f"{flag}: {', '.join(sorted(found - set(allowed)))} is not one of {', '.join(allowed)}"
            )
        return found

    return parse


# ---------------------------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """One option: a flag in the plugin's ``--help`` group and an ini key, with how its text reads.

    Examples:
        A family declares its options as a tuple of them (``api.PluginOption``) in ``<family>/options.py``:

        >>> from pytest_websearchbench.api import ConfigurationError, PluginOption
        >>> depth = PluginOption(
        ...     "--wsb-answers-depth",
        ...     "wsb_answers_depth",
        ...     "pages to follow from each hit",
        ...     "N",
        ...     default="2",
        ...     parse=lambda text, flag: int(text),
        ... )
        >>> depth.help_text
        'pages to follow from each hit (default: 2)'
        >>> depth.value(" 3 "), depth.default_value
        (3, 2)
        >>> reading = PluginOption("--wsb-answers-match", "wsb_answers_match", "how answers are compared", "HOW",
        ...                        default="exact", choices=("exact", "folded"))
        >>> try:
        ...     reading.value("fuzzy")
        ... except ConfigurationError as exc:
        ...     print(exc)
        wsb_answers_match: 'fuzzy' is not one of exact, folded
    """

    flag: str
    ini: str
    help: str
    metavar: str = ""
    #: the value when neither the command line nor the ini file sets one, as an ini file writes it
    default: str = ""
    #: text → value (ConfigurationError when it is not one); a choice is checked before
    parse: Callable[[str, str], Any] = text
    choices: tuple[str, ...] = ()
    #: what ``--help`` says the default is, where the default's text does not say it ("" shows ``default``)
    default_help: str = ""
    #: names a file or folder: written with a space, pytest would take the value for a test path (see
    #: ``check_written_whole``)
    path: bool = False
    #: a switch: no value on the command line, true or false in the ini file
    switch: bool = False
    #: may be given several times; the ini key takes one value per line
    repeated: bool = False

    @property
    def help_text(self) -> str:
        """The help, with the default said once, the same way for every option."""
        shown = self.default_help or self.default
        return f"{self.help} (default: {shown})" if shown else self.help

    def register(self, group: pytest.OptionGroup, parser: pytest.Parser) -> None:
        """Its flag in the plugin's ``--help`` group, its ini key on ``parser``."""
        argparse_help = self.help_text.replace("%", "%%")  # argparse formats help with %
        if self.switch:
            group.addoption(self.flag, action="store_true", default=None, dest=self.ini, help=argparse_help)
            parser.addini(self.ini, self.help_text, type="bool", default=False)
        elif self.repeated:
            group.addoption(
                self.flag, action="append", default=None, dest=self.ini, metavar=self.metavar, help=argparse_help
            )
            parser.addini(self.ini, self.help_text, type="linelist", default=[])
        else:
            group.addoption(
                self.flag,
                dest=self.ini,
                default=None,
                metavar=self.metavar,
                help=argparse_help,
                choices=list(self.choices) or None,
            )
            parser.addini(self.ini, self.help_text, default=self.default)

    def read(self, config: pytest.Config) -> Any:
        """The value: the command line's, else the ini key's (which argparse never checked)."""
        given = config.getoption(self.ini)
        return self.value(given if given is not None else config.getini(self.ini))

    def value(self, raw: Any) -> Any:
        """The value ``raw`` stands for: a bool for a switch, a tuple for a repeated option (the command
        line's values or the ini key's lines), else the parsed text."""
        if self.switch:
            return bool(raw)
        if self.repeated:
            return tuple(raw)
        found = str(raw).strip()
        if self.choices and found not in self.choices:
            raise ConfigurationError(f"{self.ini}: {found!r} is not one of {', '.join(self.choices)}")
        return self.parse(found, self.flag)

    @property
    def default_value(self) -> Any:
        """The value when neither the command line nor the ini file sets one."""
        return self.value(False if self.switch else [] if self.repeated else self.default)


#: the run identity's fields a family names (``BenchmarkFamily.identity``), each also the word of
#: --wsb-baseline-accept that lets a baseline differing in it be compared: the agent model asked for and as its
#: answers named it (``RawResults.served``), the run mode and board, the grades file(s) and their judges
AGENT_MODEL = "agent-model"
AGENT_SERVED = "agent-served"
MODE = "mode"
BOARD = "board"
GRADES_DIGEST = "grades-digest"
JUDGE = "judge"
IDENTITY_FIELDS = (AGENT_MODEL, AGENT_SERVED, MODE, BOARD, GRADES_DIGEST, JUDGE)

#: what must match between a run and its baseline (--wsb-baseline-accept names the ones to let pass)
BASELINE_CHECKS = ("k", "edition", "digest", "kind", "incomplete", "partial", *IDENTITY_FIELDS)

CORE_OPTIONS: tuple[Option, ...] = (
    Option("--suite", "wsb_suite", "suite folder, manifest or bundled suite name (repeatable)", "SPEC", repeated=True),
    Option(
        "--provider",
        "wsb_provider",
        "providers under test, comma-separated; NAME@LABEL runs a labelled endpoint of the provider beside the "
        "others (serper@prod,serper@staging: each its own WSB_<NAME>_<LABEL>_BASE_URL, required, and "
        "<NAME>_<LABEL>_API_KEY, else the provider's key); the first named is the reference of the Δ rows",
        "NAME[@LABEL][,...]",
        "local",
        names("provider"),
    ),
    Option("--wsb-k", "wsb_k", "declared result budget k", "N", "5", number(minimum=1, whole=True)),
    Option(
        "--wsb-record-mode",
        "wsb_record_mode",
        "cassette record mode: " + ", ".join(m.value for m in CassetteMode),
        "MODE",
        "once",
        lambda value, flag: CassetteMode(value),
        tuple(m.value for m in CassetteMode),
    ),
    Option(
        "--wsb-cassette-dir",
        "wsb_cassette_dir",
        "cassette folder",
        "PATH",
        default_help="cassettes/ beside the config file, else in the current folder",
        path=True,
    ),
    Option(
        "--wsb-json", "wsb_json", "write results (run metadata and every item) to this JSON file", "PATH", path=True
    ),
    Option(
        "--wsb-json-raw",
        "wsb_json_raw",
        "with --wsb-json: keep each item's provider answers in the file (the "
        "hits with their titles and snippets, fetched pages), which wsb-lexbench pool needs and a report built "
        "from the file shows; without it the file keeps what was scored, not the answers' text",
        switch=True,
    ),
    Option(
        "--wsb-html",
        "wsb_html",
        "write a self-contained HTML report (overview, charts, per-item drill-down) to this file",
        "PATH",
        path=True,
    ),
    Option(
        "--wsb-markdown",
        "wsb_markdown",
        "write a pull-request summary (Markdown: each suite's primary metric, "
        "the verdict against the baseline, regressed and fixed items, latency, cost) to this file; also appended "
        "to $GITHUB_STEP_SUMMARY when that is set",
        "PATH",
        path=True,
    ),
    Option(
        "--wsb-ctrf",
        "wsb_ctrf",
        "write a CTRF report (the Common Test Report Format's JSON, as Harbor's verifiers write it: one test per "
        "item, its variant and metrics in extra, and each suite's verdict test) to this file",
        "PATH",
        path=True,
    ),
    Option(
        "--wsb-inspect-log",
        "wsb_inspect_log",
        "write one Inspect eval log per suite and variant (task = suite, model = provider or agent, one sample "
        "per item with its input, target, messages and one score per metric) beside this path, as "
        "<stem>_<suite>_<variant> with its suffix: .eval or .json, Inspect's two formats; needs "
        "pip install 'pytest-websearchbench[inspect]'",
        "PATH",
        path=True,
    ),
    Option(
        "--wsb-baseline",
        "wsb_baseline",
        "results file of an earlier run, or a run of a --wsb-history file "
        "(HISTORY@LABEL: its last run of that label; HISTORY: its last run); regressions fail",
        "PATH",
        path=True,
    ),
    Option(
        "--wsb-history",
        "wsb_history",
        "append the run (time, label, plugin version, git commit, each suite's "
        "edition and digest, every item's outcome and metrics) to this SQLite release history; wsb-report "
        "--history draws its trends",
        "PATH",
        path=True,
    ),
    Option(
        "--wsb-label",
        "wsb_label",
        "the run's name in the --wsb-history file (e.g. release-1.4): the trend "
        "page's axis, and HISTORY@LABEL for --wsb-baseline",
        "TEXT",
        parse=label,
    ),
    Option(
        "--wsb-tolerance",
        "wsb_tolerance",
        "with a baseline: fail an item whose primary metric dropped by more than X",
        "X",
        parse=number(minimum=0, optional=True),
        default_help="no per-item check",
    ),
    Option(
        "--wsb-alpha",
        "wsb_alpha",
        "with a baseline: significance level of the paired test on the primary metric",
        "P",
        "0.05",
        number(inside=(0, 1)),
    ),
    Option(
        "--wsb-min-effect",
        "wsb_min_effect",
        "with a baseline: smallest mean drop of the primary metric that fails the run",
        "X",
        "0.01",
        number(minimum=0),
    ),
    Option(
        "--wsb-max-latency-regression",
        "wsb_max_latency_regression",
        "with a baseline: fail a suite's verdict when its items' client latency p50 or p95 rose by more than this "
        "(25% or 0.25) and that percentile's paired test is significant at --wsb-alpha",
        "SHARE",
        parse=share,
        default_help="latency is compared, never fails",
    ),
    Option(
        "--wsb-min-judged",
        "wsb_min_judged",
        "with a baseline: a verdict whose run has less of its top k graded than this share (judged@k, "
        "LexBench) is inconclusive (holes), never a regression nor no change",
        "SHARE",
        "0.9",
        number(minimum=0, maximum=1),
    ),
    Option(
        "--wsb-min-judged-drop",
        "wsb_min_judged_drop",
        "with a baseline: a verdict whose run has less of its top k graded than the baseline had, by more than "
        "this share, is inconclusive (holes)",
        "SHARE",
        "0.05",
        number(minimum=0, maximum=1),
    ),
    Option(
        "--wsb-baseline-accept",
        "wsb_baseline_accept",
        "compare with a baseline anyway although its k, a suite's edition or digest, or the run's kind (a "
        "family's mode) differ, its run did not complete, or it ran a part of its suites (-k, --lf…) (k, edition, "
        "digest, kind, incomplete, partial: then only its items are compared), or a field of its run identity "
        "differs (agent-model, agent-served: the agent model asked for, its snapshot as served; mode, board, "
        "grades-digest, judge); the summary then says the figures are not comparable",
        "WHAT[,WHAT]",
        parse=words(BASELINE_CHECKS),
    ),
    Option(
        "--wsb-local-corpus",
        "wsb_local_corpus",
        "corpus (JSONL) the local provider indexes",
        "PATH",
        default_help="the bundled sample web",
        path=True,
    ),
    Option(
        "--wsb-rate",
        "wsb_rate",
        "request rate limit per provider, shared by all xdist workers (e.g. serper=5/s,tavily=60/min; *=… for "
        "all; units: s, min, h)",
        "NAME=RATE[,...]",
        parse=lambda value, flag: parse_rates(value),
    ),
    Option(
        "--wsb-concurrency",
        "wsb_concurrency",
        "a live run (one that records, an agent, a model): items worked at once, in one process (pytest's or the "
        "xdist controller's)",
        "N",
        parse=number(minimum=1, maximum=MAX_CONCURRENCY, whole=True, optional=True),
        default_help="16, or more to keep each provider at its --wsb-rate (rate × its answer time)",
    ),
    Option(
        "--wsb-max-cost",
        "wsb_max_cost",
        "a live run: cap the spend of provider and model calls (the price table's) at USD; an item starts only "
        "when its worst case (its search and turn budgets at the known prices) fits, the items left are errors "
        "that say so",
        "USD",
        parse=number(minimum=0, optional=True),
        default_help="no cap",
    ),
    Option(
        "--wsb-dry-run",
        "wsb_dry_run",
        "print what a live run would call (items per provider and model, calls, the time at --wsb-rate, the cost "
        "range from the price table) and call nothing; no test runs, exit 0",
        switch=True,
    ),
    Option(
        "--wsb-list",
        "wsb_list",
        "print the providers (what each does, its key's variables), the WebBench agents and the bundled suites "
        "with their items, as --markers does; no test runs, exit 0",
        switch=True,
    ),
    Option(
        "--wsb-price",
        "wsb_price",
        "prices overriding the built-in table: a provider's in USD per 1,000 requests (serper=1.0, "
        "tavily.fetch=1.6), a model's in USD per 1M input/output tokens (gpt-4o=2.5/10)",
        "NAME[.fetch]=USD|MODEL=IN/OUT[,...]",
        parse=lambda value, flag: parse_prices(value),
    ),
    Option(
        "--wsb-timeout",
        "wsb_timeout",
        "deadline of one provider HTTP attempt: connecting, the headers and the whole body, not each read",
        "SECONDS",
        "30",
        number(minimum=0.001),
    ),
    Option(
        "--wsb-retries",
        "wsb_retries",
        "retries after a 429, a 5xx, a timeout or a connection error (a 429 or 503 with Retry-After, or a 429 "
        "naming its limit's reset, waits by --wsb-max-wait instead)",
        "N",
        "3",
        number(minimum=0, whole=True),
    ),
    Option(
        "--wsb-max-wait",
        "wsb_max_wait",
        "seconds one item may wait out 429 and 503 answers with Retry-After, over all its calls (outside a live "
        "run, one call): such answers use up this time, not --wsb-retries, so a short storm loses no item",
        "SECONDS",
        "120",
        number(minimum=0),
    ),
    Option(
        "--wsb-backoff",
        "wsb_backoff",
        "base of the exponential backoff between retries, with jitter",
        "SECONDS",
        "0.5",
        number(minimum=0),
    ),
    Option(
        "--wsb-hub-max-size",
        "wsb_hub_max_size",
        "remote suite files (hf://...): refuse a file the hub serves larger than this, before downloading it",
        "MB",
        "1024",
        number(minimum=1, whole=True),
    ),
    Option(
        "--wsb-lock",
        "wsb_lock",
        "remote suite files (hf://...) against wsb.lock beside the config file: "
        "verify checks each against its pin, update pins what the hub serves now",
        "MODE",
        "verify",
        choices=LOCK_MODES,
    ),
)

#: the code leaderboard's model (its harness's default), the model option's default for every family
DEFAULT_MODEL = "gpt-5.6-sol"
#: the model transports by name (providers/model_client.py): the OpenAI Responses API, Chat Completions
RESPONSES_API = "responses"
CHAT_API = "chat"

#: runs of every item, each its own item and cassette: WebBench's episodes, the code agent's runs; declared once
REPEAT_OPTION = Option(
    "--wsb-repeat",
    "wsb_repeat",
    "WebBench, and code suites in agent mode: runs of every task or ticket, each its "
    "own item (<id>@1…@N) and cassette; WebBench's summary gives per template the pass rate with a Wilson 80 % "
    "interval, the code summary the pass rate as mean ± SD over the runs and each ticket's pass count",
    "N",
    "1",
    number(minimum=1, whole=True),
)

#: the options of every family that calls a model (the code agent, WebBench's model agent): declared once
MODEL_OPTIONS: tuple[Option, ...] = (
    Option(
        "--wsb-model",
        "wsb_model",
        "the model's name at OPENAI_BASE_URL, for the code agent (code suites, agent mode) and WebBench's model agent",
        "NAME",
        DEFAULT_MODEL,
        lambda value, flag: value or DEFAULT_MODEL,
        default_help=f"the code leaderboard's, {DEFAULT_MODEL}",
    ),
    Option(
        "--wsb-model-api",
        "wsb_model_api",
        f"the model's API: {RESPONSES_API} (the OpenAI Responses API, as the code harness) or {CHAT_API} "
        "(Chat Completions, for any OpenAI-compatible server; not comparable with the code leaderboard)",
        "API",
        RESPONSES_API,
        choices=(RESPONSES_API, CHAT_API),
    ),
    Option(
        "--wsb-temperature",
        "wsb_temperature",
        "send this temperature to the model (not comparable with the code leaderboard, nor with WebBench's "
        "model agent)",
        "T",
        parse=number(minimum=0, optional=True),
        default_help="none to the code agent's model, as its harness; 0 to WebBench's model agent's",
    ),
)


def add_options(parser: pytest.Parser, options: Iterable[Option], provider_ini_keys: Iterable[tuple[str, str]]) -> None:
    """Every option, once each, in the plugin's group, then the providers' ini keys
    (``provider_ini_keys``: (key, help) pairs, ``wsb_<name>_<option>``)."""
    group = parser.getgroup("websearchbench", "web-search benchmarks (pytest-websearchbench)")
    for option in unique(options):
        option.register(group, parser)
    for ini, help_text in provider_ini_keys:
        parser.addini(ini, help_text, default="")


def unique(options: Iterable[Option]) -> list[Option]:
    """Each option once (families share the model options), in the order first met."""
    return list({option.ini: option for option in options}.values())


def check_written_whole(args: Iterable[str], options: Iterable[Option]) -> None:
    """A path option must be one argument, ``--flag=PATH``. pytest picks its rootdir and ini file before it
    knows the plugin's options, from every argument that names an existing path: ``--wsb-cassette-dir DIR``
    would make DIR one (the rootdir moves, the project's ini file may be left unread, a suite name may
    resolve inside DIR), so it is refused here, before anything runs, whether or not DIR exists yet."""
    flags = {option.flag for option in options if option.path}
    args = list(args)
    for flag, value in zip(args, args[1:] + [""]):
        if flag in flags and value and not value.startswith("-"):
            raise ConfigurationError(
                f"{flag} {value}: write {flag}={shlex.quote(value)} (one argument): pytest reads a path written "
                f"after a space as a test path before it knows {flag}, and moves its rootdir there"
            )


class OptionValues:
    """Every option's value, read once: the command line's, else the ini key's, checked by its ``Option``
    (a bad value is one ConfigurationError naming the option, before anything runs).

    Examples:
        A family's ``configure`` is handed the run's values, by ini key, already parsed:

        ```python
        from pytest_websearchbench.api import BenchmarkFamily, ConfigurationError, OptionValues, Settings


        class Answers(BenchmarkFamily):
            def configure(self, options: OptionValues, settings: Settings) -> BenchmarkFamily:
                self.depth = options["wsb_answers_depth"]  # an int: its PluginOption parsed it
                self.notes = options.path("wsb_answers_notes")  # anchored like a path option; None when unset
                if self.notes is None and not options.is_default("wsb_answers_depth"):
                    raise ConfigurationError("--wsb-answers-depth needs --wsb-answers-notes")
                return self
        ```
    """

    def __init__(self, config: pytest.Config, options: Iterable[Option]) -> None:
        #: the run's plugin hooks: a family may ask other plugins for more (WebBench: agents)
        self.hook = config.hook
        self._config = config
        self._options = {option.ini: option for option in unique(options)}
        self._values = {ini: option.read(config) for ini, option in self._options.items()}
        # the config file's folder anchors ini values and the default cassette folder, else the folder
        # pytest was started in: never pytest's rootdir guess
        self.anchor = config.inipath.parent if config.inipath else config.invocation_params.dir

    def __getitem__(self, ini: str) -> Any:
        return self._values[ini]

    def is_default(self, ini: str) -> bool:
        """Neither the command line nor the ini file gives the option another value than its default."""
        return bool(self._values[ini] == self._options[ini].default_value)

    def path(self, ini: str) -> Path | None:
        """A path option's value: one on the command line is relative to where pytest was started, one in
        the ini file to its folder; None when unset."""
        if not self._values[ini]:
            return None
        from_command_line = self._config.getoption(ini) is not None
        return Path(self._config.invocation_params.dir if from_command_line else self.anchor, self._values[ini])


@dataclass(frozen=True)
class Settings:
    """The run's choices, resolved once from options, ini and defaults.

    Examples:
        A family reads them in ``configure`` and ``variants``, and in ``run`` as ``ctx.settings``:

        ```python
        from pytest_websearchbench.api import BenchmarkFamily, ConfigurationError, OptionValues, Settings


        class Answers(BenchmarkFamily):
            def configure(self, options: OptionValues, settings: Settings) -> BenchmarkFamily:
                if settings.k > 20:
                    raise ConfigurationError(f"answers: --wsb-k={settings.k}, but an item reads at most 20 hits")
                self.replaying = settings.record_mode.value == "none"
                return self

            def variants(self, settings: Settings) -> tuple[str, ...]:
                return settings.providers  # one item per case and provider (the default)
        ```
    """

    providers: tuple[str, ...]
    suites: tuple[str, ...]
    k: int
    record_mode: CassetteMode
    cassette_dir: Path
    json_path: Path | None
    baseline_path: Path | None
    tolerance: float | None  # None: no per-item metric check against the baseline
    local_corpus: Path | None
    rates: Mapping[str, Rate] = field(default_factory=dict)
    prices: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    timeout: float = 30.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    alpha: float = 0.05
    min_effect: float = 0.01
    min_judged: float = 0.9  # a verdict over less graded answers than this (or than the baseline's) has holes
    min_judged_drop: float = 0.05
    max_latency_regression: float | None = None  # --wsb-max-latency-regression; None: latency fails nothing
    baseline_accept: frozenset[str] = frozenset()  # baseline differences accepted knowingly
    html_path: Path | None = None
    markdown_path: Path | None = None  # --wsb-markdown
    ctrf_path: Path | None = None  # --wsb-ctrf
    inspect_log_path: Path | None = None  # --wsb-inspect-log: its logs are beside it (reporting/inspect_log.log_file)
    history_path: Path | None = None  # --wsb-history: the release history the run is appended to
    label: str = ""  # the run's label there
    cassette_dir_given: bool = False  # the folder was named (command line or ini): never another folder's cassettes
    json_raw: bool = False  # --wsb-json-raw: the results file keeps the provider answers' text
    concurrency: int | None = None  # --wsb-concurrency; None: chosen from the rates (run/live/)
    max_cost: float | None = None  # --wsb-max-cost, USD
    dry_run: bool = False  # --wsb-dry-run: the live run's plan is printed, nothing is called

    @property
    def calls_out(self) -> bool:
        """Whether this run calls providers and models for real (its record mode records; a dry run only plans
        the calls): what a family or an agent is told, never the record mode, which only the run and its
        cassettes read (run/live/ records; a test replays, or on a gateway elsewhere records: run/runner.py)."""
        return self.record_mode.may_record

    def cassette_args(self) -> str:
        """The option that locates this run's cassettes, for a command a message suggests (with a leading
        space; relative to the current folder when inside it, else absolute). Written whether or not the user
        named the folder: pytest reads its config file, which anchors the default folder, from the command's
        paths, so a command naming a suite in a clone or an installed package would record into that folder's
        ``cassettes/``, not the one this run read."""
        folder = self.cassette_dir.resolve()
        shown = folder.relative_to(Path.cwd()) if folder.is_relative_to(Path.cwd()) else folder
        return f" --wsb-cassette-dir={shlex.quote(str(shown))}"

    @classmethod
    def from_options(cls, values: OptionValues) -> Settings:
        # Paths never follow pytest's rootdir guess (OptionValues.path): the default cassette folder is
        # beside the config file, else in the folder pytest was started in.
        return cls(
            providers=values["wsb_provider"],
            suites=values["wsb_suite"],
            k=values["wsb_k"],
            record_mode=values["wsb_record_mode"],
            cassette_dir=_folder(values.path("wsb_cassette_dir") or values.anchor / "cassettes", "--wsb-cassette-dir"),
            json_path=output_path(values.path("wsb_json"), "--wsb-json"),
            baseline_path=values.path("wsb_baseline"),
            tolerance=values["wsb_tolerance"],
            local_corpus=_existing(values.path("wsb_local_corpus"), "--wsb-local-corpus"),
            rates=values["wsb_rate"],
            prices=values["wsb_price"],
            timeout=values["wsb_timeout"],
            retry=RetryPolicy(
                retries=values["wsb_retries"], backoff=values["wsb_backoff"], max_wait=values["wsb_max_wait"]
            ),
            alpha=values["wsb_alpha"],
            min_effect=values["wsb_min_effect"],
            min_judged=values["wsb_min_judged"],
            min_judged_drop=values["wsb_min_judged_drop"],
            max_latency_regression=values["wsb_max_latency_regression"],
            baseline_accept=values["wsb_baseline_accept"],
            html_path=output_path(values.path("wsb_html"), "--wsb-html"),
            markdown_path=output_path(values.path("wsb_markdown"), "--wsb-markdown"),
            ctrf_path=output_path(values.path("wsb_ctrf"), "--wsb-ctrf"),
            inspect_log_path=inspect_log_path(values.path("wsb_inspect_log"), "--wsb-inspect-log"),
            history_path=output_path(values.path("wsb_history"), "--wsb-history"),
            label=values["wsb_label"],
            cassette_dir_given=values.path("wsb_cassette_dir") is not None,
            json_raw=values["wsb_json_raw"],
            concurrency=values["wsb_concurrency"],
            max_cost=values["wsb_max_cost"],
            dry_run=values["wsb_dry_run"],
        )


def _existing(path: Path | None, flag: str) -> Path | None:
    """A file the run reads: one that is not there is a usage error now, not an error of every item later."""
    if path is not None and not path.is_file():
        raise ConfigurationError(f"{flag}: {path} is not a file" if path.exists() else f"{flag}: {path} does not exist")
    return path


def _folder(path: Path, flag: str) -> Path:
    """A folder the run writes into, made when first written (it and its sub-folders: the cassette tree);
    something else already at the path is refused now, not an error of every item later."""
    if path.exists() and not path.is_dir():
        raise ConfigurationError(f"{flag}: {path} is {file_kind(path.stat().st_mode)}, not a folder")
    return path


def output_path(path: Path | None, flag: str) -> Path | None:
    """A file the run writes at its end: refused now if it cannot be written then (not after an hour's run).

    Only a regular file is written: a folder, FIFO, socket or device at the path is refused and left alone; a
    symlink is written through to its target (as pytest's --junitxml), which must pass the same checks. The
    folder must exist (a mistyped path never makes folders, least of all as root) and take a new file: a
    probe file is made and removed in it, since os.access says yes to root on /proc or a read-only mount."""
    if path is None:
        return None
    try:
        target = writable_target(path)
    except NotRegularFileError as exc:
        if exc.errno == errno.EISDIR and not path.is_symlink():
            raise ConfigurationError(f"{flag}: {path} is a folder; give a file name") from None
        raise ConfigurationError(f"{flag}: {exc.filename}: {exc.strerror}; give a file name") from None
    except OSError as exc:  # a symlink loop, a path under a file
        raise ConfigurationError(f"{flag}: cannot write {path}: {exc.strerror or exc}") from None
    folder = target.parent
    if not folder.exists():
        raise ConfigurationError(
            f"{flag}: cannot write {path}: the folder {folder} does not exist (an output's folder is never made)"
        )
    if not folder.is_dir():
        kind = file_kind(folder.lstat().st_mode)
        raise ConfigurationError(f"{flag}: cannot write {path}: {folder} is not a writable folder ({kind})")
    reason = probe_folder(folder, target.name)
    if reason:
        raise ConfigurationError(f"{flag}: cannot write {path}: {folder} is not a writable folder ({reason})")
    return path


#: Inspect's log formats, by the suffix of --wsb-inspect-log's path
INSPECT_LOG_SUFFIXES = (".eval", ".json")
#: what installs inspect-ai, the one library --wsb-inspect-log writes through
INSPECT_EXTRA = "pip install 'pytest-websearchbench[inspect]'"


def inspect_log_path(path: Path | None, flag: str) -> Path | None:
    """--wsb-inspect-log's path, refused now: a suffix that is no Inspect log format, inspect-ai not installed
    (the logs are written through its own writer), or a folder that will not take the files."""
    if path is None:
        return None
    if path.suffix not in INSPECT_LOG_SUFFIXES:
        raise ConfigurationError(
            f"{flag}: {path} must end in .eval or .json (Inspect's log formats), not "
            f"{repr(path.suffix) if path.suffix else 'without a suffix'}"
        )
    if importlib.util.find_spec("inspect_ai") is None:
        raise ConfigurationError(f"{flag} writes through inspect-ai, which is not installed: {INSPECT_EXTRA}")
    return output_path(path, flag)


def output_folder(path: Path | None, flag: str) -> Path | None:
    """A folder the run writes its files into at its end (a family's own outputs): refused now if it cannot
    be written then. An existing folder must take a new file; a folder that does not exist is made when
    written, so its parent must be a folder that takes one (one level only: a mistyped path never makes a
    tree of folders); anything else at the path is refused and left alone."""
    if path is None:
        return None
    target = Path(os.path.realpath(path))  # a symlink to a folder is written through
    if target.exists() and not target.is_dir():
        raise ConfigurationError(f"{flag}: {path} is {file_kind(target.stat().st_mode)}, not a folder")
    folder = target if target.is_dir() else target.parent
    if not folder.is_dir():
        raise ConfigurationError(
            f"{flag}: cannot write into {path}: the folder {folder} does not exist (only the last folder is made)"
        )
    reason = probe_folder(folder, "wsb-probe")
    if reason:
        raise ConfigurationError(f"{flag}: cannot write into {path}: {folder} is not a writable folder ({reason})")
    return path
