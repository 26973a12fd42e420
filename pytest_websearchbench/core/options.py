"""Command-line options and ini keys, and the run's settings read from them.

Every option is also an ini key (``wsb_*``) so a project can pin its choices in
``[tool.pytest.ini_options]``; the command line wins over the ini file.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import pytest

from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.hub import LOCK_MODES
from pytest_websearchbench.core.policies import Rate, RetryPolicy, parse_prices, parse_rates


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
    ("--wsb-cassette-dir", "PATH", "wsb_cassette_dir", "cassette folder (default: cassettes/ beside the config file, else in the current folder)", ""),
    ("--wsb-json", "PATH", "wsb_json", "write results (run metadata and every item) to this JSON file", ""),
    ("--wsb-html", "PATH", "wsb_html",
     "write a self-contained HTML report (overview, charts, per-item drill-down) to this file", ""),
    ("--wsb-baseline", "PATH", "wsb_baseline", "results file of an earlier run; regressions fail", ""),
    ("--wsb-tolerance", "X", "wsb_tolerance",
     "with a baseline: fail an item whose primary metric dropped by more than X (default: no per-item check)", ""),
    ("--wsb-alpha", "P", "wsb_alpha",
     "with a baseline: significance level of the paired test on the primary metric (default: 0.05)", "0.05"),
    ("--wsb-min-effect", "X", "wsb_min_effect",
     "with a baseline: smallest mean drop of the primary metric that fails the run (default: 0.01)", "0.01"),
    ("--wsb-baseline-accept", "WHAT[,WHAT]", "wsb_baseline_accept",
     "compare with a baseline anyway although its k, a suite's edition or digest, or the run's kind (a family's "
     "mode) differ, or its run did not complete (k, edition, digest, kind, incomplete); "
     "the summary then says the figures are not comparable", ""),
    ("--wsb-local-corpus", "PATH", "wsb_local_corpus",
     "corpus (JSONL) the local provider indexes (default: the bundled sample web)", ""),
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
    ("--wsb-lock", "MODE", "wsb_lock",
     "remote suite files (hf://...) against wsb.lock beside the config file: verify (default) checks each "
     "against its pin, update pins what the hub serves now", "verify"),
]


#: what must match between a run and its baseline (--wsb-baseline-accept names the ones to let pass)
BASELINE_CHECKS = ("k", "edition", "digest", "kind", "incomplete")

_CHOICES = {"wsb_record_mode": [m.value for m in CassetteMode], "wsb_lock": list(LOCK_MODES)}


class FamilyOptions:
    """Where a benchmark family declares its own options: each is a flag in the
    ``websearchbench`` group and a ``wsb_*`` ini key, like the core's."""

    def __init__(self, group, parser: pytest.Parser) -> None:
        self._group = group
        self._parser = parser

    def add_value(self, flag: str, ini: str, help_text: str, default: str, *, metavar: str,
                  choices: list[str] | None = None) -> None:
        self._group.addoption(flag, dest=ini, default=None, help=help_text, metavar=metavar, choices=choices)
        self._parser.addini(ini, help_text, default=default)

    def add_flag(self, flag: str, ini: str, help_text: str) -> None:
        self._group.addoption(flag, action="store_true", default=None, dest=ini, help=help_text)
        self._parser.addini(ini, help_text, type="bool", default=False)


class OptionReader:
    """An option's value: the command line's, else the ini key's (which argparse never checked)."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config

    def value(self, ini: str) -> str:
        given = self._config.getoption(ini)
        return str(given if given is not None else self._config.getini(ini)).strip()

    def flag(self, ini: str) -> bool:
        given = self._config.getoption(ini)
        return bool(given if given is not None else self._config.getini(ini))

    def choice(self, ini: str, choices: tuple[str, ...] | list[str]) -> str:
        found = self.value(ini)
        if found not in choices:
            raise ConfigurationError(f"{ini}: {found!r} is not one of {', '.join(choices)}")
        return found

    def names(self, ini: str, flag: str, noun: str) -> tuple[str, ...]:
        """A comma-separated list of ``noun`` names: at least one, none twice."""
        text = self.value(ini)
        names = tuple(n.strip() for n in text.split(",") if n.strip())
        if not names:
            raise ConfigurationError(f"{flag}: give at least one {noun} name")
        if len(set(names)) != len(names):
            raise ConfigurationError(f"{flag}: a {noun} is named twice in {text!r}")
        return names


def add_options(parser: pytest.Parser, families, provider_ini_keys) -> None:
    """The core's options, then each family's (``families``: the registry's prototypes), then the
    providers' ini keys (``provider_ini_keys``: (key, help) pairs, ``wsb_<name>_<option>``)."""
    group = parser.getgroup("websearchbench", "web-search benchmarks (pytest-websearchbench)")
    group.addoption("--suite", action="append", default=[], dest="wsb_suite", metavar="SPEC",
                    help="suite folder, manifest or bundled suite name (repeatable)")
    parser.addini("wsb_suite", "suites to collect (folders, manifests or bundled names)", type="linelist", default=[])
    for flag, metavar, ini, help_text, default in _VALUE_OPTIONS:
        group.addoption(flag, dest=ini, default=None, help=help_text, metavar=metavar, choices=_CHOICES.get(ini))
        parser.addini(ini, help_text, default=default)
    declared = FamilyOptions(group, parser)
    for family in families:
        family.add_options(declared)
    for ini, help_text in provider_ini_keys:
        parser.addini(ini, help_text, default="")


def config_folder(config: pytest.Config) -> Path:
    """The folder the run's files are anchored to: the config file's, else the one pytest was started in
    (never pytest's rootdir guess, which a path-like option value can move)."""
    return config.inipath.parent if config.inipath else config.invocation_params.dir


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
    tolerance: float | None  # None: no per-item metric check against the baseline
    local_corpus: Path | None
    rates: Mapping[str, Rate] = field(default_factory=dict)
    prices: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    timeout: float = 30.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    alpha: float = 0.05
    min_effect: float = 0.01
    baseline_accept: frozenset[str] = frozenset()  # baseline differences accepted knowingly
    html_path: Path | None = None

    @classmethod
    def from_config(cls, config: pytest.Config) -> "Settings":
        value = OptionReader(config).value

        # Paths never follow pytest's rootdir guess, which a path-like option value can move
        # (`--wsb-local-corpus /tmp/x.jsonl` once made /tmp the rootdir and the cassette folder):
        # the config file's folder anchors ini values and the default cassette folder, else the
        # folder pytest was started in.
        anchor = config_folder(config)

        def path(ini: str) -> Path | None:
            # a path on the command line is relative to where pytest was started, one in the ini file to its folder
            text = value(ini)
            if not text:
                return None
            base = config.invocation_params.dir if config.getoption(ini) is not None else anchor
            return Path(base, text)

        providers = OptionReader(config).names("wsb_provider", "--provider", "provider")
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
        tolerance = _number(value("wsb_tolerance"), "--wsb-tolerance", minimum=0.0) if value("wsb_tolerance") else None
        alpha = _number(value("wsb_alpha"), "--wsb-alpha", minimum=0.0)
        if not 0 < alpha < 1:
            raise ConfigurationError(f"--wsb-alpha: must be between 0 and 1, got {value('wsb_alpha')}")
        accept = frozenset(w.strip() for w in value("wsb_baseline_accept").split(",") if w.strip())
        if accept - set(BASELINE_CHECKS):
            raise ConfigurationError(f"--wsb-baseline-accept: {', '.join(sorted(accept - set(BASELINE_CHECKS)))} is not "
                                     f"one of {', '.join(BASELINE_CHECKS)}")
        suites = tuple(config.getoption("wsb_suite") or config.getini("wsb_suite"))
        timeout = _number(value("wsb_timeout"), "--wsb-timeout", minimum=0.001)
        retry = RetryPolicy(retries=int(_number(value("wsb_retries"), "--wsb-retries", minimum=0, whole=True)),
                            backoff=_number(value("wsb_backoff"), "--wsb-backoff", minimum=0.0))
        return cls(
            providers=providers,
            suites=suites,
            k=k,
            record_mode=mode,
            cassette_dir=path("wsb_cassette_dir") or anchor / "cassettes",
            json_path=_output(path("wsb_json"), "--wsb-json"),
            baseline_path=path("wsb_baseline"),
            tolerance=tolerance,
            local_corpus=path("wsb_local_corpus"),
            rates=parse_rates(value("wsb_rate")),
            prices=parse_prices(value("wsb_price")),
            timeout=timeout,
            retry=retry,
            alpha=alpha,
            min_effect=_number(value("wsb_min_effect"), "--wsb-min-effect", minimum=0.0),
            baseline_accept=accept,
            html_path=_output(path("wsb_html"), "--wsb-html"),
        )


def _output(path: Path | None, flag: str) -> Path | None:
    """A file the run writes at its end: refused now if it cannot be written then (not after an hour's run)."""
    if path is None:
        return None
    if path.is_dir():
        raise ConfigurationError(f"{flag}: {path} is a folder; give a file name")
    folder = path.parent
    while not folder.exists():  # the writer creates missing folders under the nearest existing one
        folder = folder.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigurationError(f"{flag}: cannot write {path}: {folder} is not a writable folder")
    return path


def _number(text: str, flag: str, *, minimum: float, whole: bool = False) -> float:
    try:
        number = int(text) if whole else float(text)
    except ValueError:
        raise ConfigurationError(f"{flag}: expected {'a whole number' if whole else 'a number'}, got {text!r}") from None
    if number < minimum:
        raise ConfigurationError(f"{flag}: must be at least {minimum:g}, got {text}")
    return number
