"""Command-line options and ini keys, and the run's settings read from them.

Every option is also an ini key (``wsb_*``) so a project can pin its choices in
``[tool.pytest.ini_options]``; the command line wins over the ini file.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import pytest

from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.providers.pricing import parse_prices
from pytest_websearchbench.providers.ratelimit import Rate, parse_rates
from pytest_websearchbench.providers.retry import RetryPolicy


class CassetteMode(str, enum.Enum):
    """vcrpy's record modes plus ``rewrite`` (drop the cassette and record it anew)."""

    NONE = "none"
    ONCE = "once"
    NEW_EPISODES = "new_episodes"
    ALL = "all"
    REWRITE = "rewrite"

    @property
    def may_record(self) -> bool:
        return self is not CassetteMode.NONE


# (option, metavar, ini key, help, default); the ini key's value is used when the option is absent.
_VALUE_OPTIONS = [
    ("--provider", "NAME[,NAME...]", "wsb_provider", "providers under test, comma-separated (default: local)",
     "local"),
    ("--wsb-k", "N", "wsb_k", "declared result budget k (default: 5)", "5"),
    ("--wsb-record-mode", "MODE", "wsb_record_mode",
     "cassette record mode: " + ", ".join(m.value for m in CassetteMode) + " (default: once)", "once"),
    ("--wsb-cassette-dir", "PATH", "wsb_cassette_dir", "cassette folder (default: <rootdir>/cassettes)", ""),
    ("--wsb-json", "PATH", "wsb_json", "write results (run metadata and every item) to this JSON file", ""),
    ("--wsb-baseline", "PATH", "wsb_baseline", "results file of an earlier run; regressions fail", ""),
    ("--wsb-tolerance", "X", "wsb_tolerance",
     "allowed drop of an item's primary metric against the baseline (default: 0.0)", "0.0"),
    ("--wsb-local-corpus", "PATH", "wsb_local_corpus",
     "corpus (JSONL) the local provider indexes (default: the bundled sample web)", ""),
    ("--wsb-mode", "MODE", "wsb_mode",
     "code suites: retrieval (model-free probe, the ticket text as query) or agent (the fixed agent; "
     "needs --wsb-model, OPENAI_BASE_URL, OPENAI_API_KEY) (default: retrieval)", "retrieval"),
    ("--wsb-board", "BOARD", "wsb_board",
     "code suites: search (search only) or search-fetch (search and fetch pages) (default: search)", "search"),
    ("--wsb-model", "NAME", "wsb_model", "code suites, agent mode: the chat model's name at OPENAI_BASE_URL", ""),
    ("--wsb-rate", "NAME=RATE[,...]", "wsb_rate",
     "request rate limit per provider, shared by all xdist workers (e.g. serper=5/s,tavily=60/min; *=… for all)",
     ""),
    ("--wsb-price", "NAME[.fetch]=USD[,...]", "wsb_price",
     "price in USD per 1,000 requests, overriding the built-in table (e.g. serper=1.0,tavily.fetch=1.6)", ""),
    ("--wsb-timeout", "SECONDS", "wsb_timeout", "timeout of one provider HTTP request (default: 30)", "30"),
    ("--wsb-retries", "N", "wsb_retries",
     "retries after a 429, a 5xx, a timeout or a connection error (default: 3)", "3"),
    ("--wsb-backoff", "SECONDS", "wsb_backoff",
     "base of the exponential backoff between retries, with jitter (default: 0.5)", "0.5"),
    ("--wsb-agent", "NAME[,NAME...]", "wsb_agent",
     "WebBench: who works each task: oracle, alt-oracle or a control, comma-separated (default: oracle)", "oracle"),
]


_CHOICES = {"wsb_record_mode": [m.value for m in CassetteMode], "wsb_mode": ["retrieval", "agent"],
            "wsb_board": ["search", "search-fetch"]}


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("websearchbench", "web-search benchmarks (pytest-websearchbench)")
    group.addoption("--suite", action="append", default=[], dest="wsb_suite", metavar="SPEC",
                    help="suite folder, manifest or bundled suite name (repeatable)")
    parser.addini("wsb_suite", "suites to collect (folders, manifests or bundled names)", type="linelist", default=[])
    for flag, metavar, ini, help_text, default in _VALUE_OPTIONS:
        group.addoption(flag, dest=ini, default=None, help=help_text, metavar=metavar, choices=_CHOICES.get(ini))
        parser.addini(ini, help_text, default=default)
    selftest_help = ("code suites: check the suite itself instead of a provider: every gold passes and every "
                     "starter fails (grounding off)")
    group.addoption("--wsb-selftest", action="store_true", default=None, dest="wsb_selftest", help=selftest_help)
    parser.addini("wsb_selftest", selftest_help, type="bool", default=False)
    from pytest_websearchbench.providers.catalog import builtin_ini_keys

    for ini, help_text in builtin_ini_keys():  # provider options: wsb_<name>_<option>
        parser.addini(ini, help_text, default="")


@dataclass(frozen=True)
class Settings:
    """The run's choices, resolved once from options, ini and defaults."""

    providers: tuple[str, ...]
    suites: tuple[str, ...]
    k: int
    record_mode: CassetteMode
    cassette_dir: Path
    json_path: Path | None
    baseline_path: Path | None
    tolerance: float
    local_corpus: Path | None
    rates: Mapping[str, Rate] = field(default_factory=dict)
    prices: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    timeout: float = 30.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    agents: tuple[str, ...] = ("oracle",)  # WebBench: who works each task (--wsb-agent)
    mode: str = "retrieval"  # code suites: retrieval | agent
    board: str = "search"  # code suites: search | search-fetch
    model: str = ""  # code suites, agent mode: the chat model
    selftest: bool = False  # code suites: check gold/starter instead of running a provider

    @classmethod
    def from_config(cls, config: pytest.Config) -> "Settings":
        def value(ini: str) -> str:
            given = config.getoption(ini)
            return str(given if given is not None else config.getini(ini)).strip()

        def path(ini: str) -> Path | None:
            # a path on the command line is relative to where pytest was started,
            # one in the ini file to the rootdir
            text = value(ini)
            if not text:
                return None
            base = config.invocation_params.dir if config.getoption(ini) is not None else config.rootpath
            return Path(base, text)

        providers = tuple(p.strip() for p in value("wsb_provider").split(",") if p.strip())
        if not providers:
            raise ConfigurationError("--provider: give at least one provider name")
        if len(set(providers)) != len(providers):
            raise ConfigurationError(f"--provider: a provider is named twice in {','.join(providers)!r}")
        try:
            k = int(value("wsb_k"))
        except ValueError:
            raise ConfigurationError(f"--wsb-k: expected a whole number, got {value('wsb_k')!r}") from None
        if k < 1:
            raise ConfigurationError(f"--wsb-k: must be at least 1, got {k}")
        try:
            mode = CassetteMode(value("wsb_record_mode"))
        except ValueError:
            raise ConfigurationError(
                f"wsb_record_mode: {value('wsb_record_mode')!r} is not one of "
                + ", ".join(m.value for m in CassetteMode)) from None
        try:
            tolerance = float(value("wsb_tolerance"))
        except ValueError:
            raise ConfigurationError(f"--wsb-tolerance: expected a number, got {value('wsb_tolerance')!r}") from None
        suites = tuple(config.getoption("wsb_suite") or config.getini("wsb_suite"))
        timeout = _number(value("wsb_timeout"), "--wsb-timeout", minimum=0.001)
        retry = RetryPolicy(retries=int(_number(value("wsb_retries"), "--wsb-retries", minimum=0, whole=True)),
                            backoff=_number(value("wsb_backoff"), "--wsb-backoff", minimum=0.0))
        return cls(
            providers=providers,
            suites=suites,
            k=k,
            record_mode=mode,
            cassette_dir=path("wsb_cassette_dir") or config.rootpath / "cassettes",
            json_path=path("wsb_json"),
            baseline_path=path("wsb_baseline"),
            tolerance=tolerance,
            local_corpus=path("wsb_local_corpus"),
            rates=parse_rates(value("wsb_rate")),
            prices=parse_prices(value("wsb_price")),
            timeout=timeout,
            retry=retry,
            agents=_agents(value("wsb_agent")),
            **_code_settings(config, value),
        )


def _code_settings(config: pytest.Config, value) -> dict:
    """--wsb-mode, --wsb-board, --wsb-model and --wsb-selftest, checked (ini values skip argparse)."""
    found = {"mode": value("wsb_mode"), "board": value("wsb_board"), "model": value("wsb_model")}
    for key in ("mode", "board"):
        if found[key] not in _CHOICES[f"wsb_{key}"]:
            raise ConfigurationError(f"wsb_{key}: {found[key]!r} is not one of {', '.join(_CHOICES[f'wsb_{key}'])}")
    selftest = config.getoption("wsb_selftest")
    found["selftest"] = bool(selftest if selftest is not None else config.getini("wsb_selftest"))
    if found["mode"] == "agent" and not found["model"] and not found["selftest"]:
        raise ConfigurationError("--wsb-mode=agent needs --wsb-model (the model's name at OPENAI_BASE_URL)")
    return found


def _agents(text: str) -> tuple[str, ...]:
    from pytest_websearchbench.webbench.agents.catalog import AGENTS

    agents = tuple(a.strip() for a in text.split(",") if a.strip())
    if not agents:
        raise ConfigurationError("--wsb-agent: give at least one agent name")
    unknown = [a for a in agents if a not in AGENTS]
    if unknown:
        raise ConfigurationError(f"--wsb-agent: unknown agent {unknown[0]!r}; agents: {', '.join(AGENTS)}")
    if len(set(agents)) != len(agents):
        raise ConfigurationError(f"--wsb-agent: an agent is named twice in {text!r}")
    return agents


def _number(text: str, flag: str, *, minimum: float, whole: bool = False) -> float:
    try:
        number = int(text) if whole else float(text)
    except ValueError:
        raise ConfigurationError(f"{flag}: expected {'a whole number' if whole else 'a number'}, got {text!r}") from None
    if number < minimum:
        raise ConfigurationError(f"{flag}: must be at least {minimum:g}, got {text}")
    return number
