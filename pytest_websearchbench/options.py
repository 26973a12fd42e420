"""Command-line options and ini keys, and the run's settings read from them.

Every option is also an ini key (``wsb_*``) so a project can pin its choices in
``[tool.pytest.ini_options]``; the command line wins over the ini file.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_websearchbench.exceptions import ConfigurationError


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
]


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("websearchbench", "web-search benchmarks (pytest-websearchbench)")
    group.addoption("--suite", action="append", default=[], dest="wsb_suite", metavar="SPEC",
                    help="suite folder, manifest or bundled suite name (repeatable)")
    parser.addini("wsb_suite", "suites to collect (folders, manifests or bundled names)", type="linelist", default=[])
    for flag, metavar, ini, help_text, default in _VALUE_OPTIONS:
        group.addoption(flag, dest=ini, default=None, help=help_text, metavar=metavar,
                        choices=[m.value for m in CassetteMode] if ini == "wsb_record_mode" else None)
        parser.addini(ini, help_text, default=default)


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
        )
