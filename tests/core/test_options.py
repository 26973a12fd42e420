"""The options: each declared once (the core's, the model options every family that calls a model shares,
each family's own table), checked from its declaration at startup, its default said once in ``--help``; a
path option written with a space and a rate that names no provider or no unit are usage errors; and
starting pytest imports no family and none of the heavy libraries."""

from __future__ import annotations

import ast
import subprocess
import sys
from types import SimpleNamespace

import pytest

from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.options import MODEL_OPTIONS, CassetteMode, Settings, number
from pytest_websearchbench.run.registry import FAMILIES, all_options, family_class, family_options

PATH_OPTIONS = (
    "--wsb-cassette-dir",
    "--wsb-json",
    "--wsb-html",
    "--wsb-markdown",
    "--wsb-ctrf",
    "--wsb-baseline",
    "--wsb-history",
    "--wsb-local-corpus",
    "--wsb-grades",
    "--wsb-grades-index",
    "--wsb-trec",
    "--wsb-inspect-log",
    "--wsb-system-prompt",
    "--wsb-code-json",
)


def test_one_number_parser_says_what_is_wrong():
    whole = number(minimum=1, whole=True)
    assert whole("3", "--wsb-k") == 3
    with pytest.raises(ConfigurationError, match=r"^--wsb-k: expected a whole number, got '2.5'$"):
        whole("2.5", "--wsb-k")
    with pytest.raises(ConfigurationError, match=r"^--wsb-k: must be at least 1, got 0$"):
        whole("0", "--wsb-k")
    assert number(minimum=0, optional=True)("", "--wsb-temperature") is None
    with pytest.raises(ConfigurationError, match=r"^--wsb-temperature: expected a number, got 'nan'$"):
        number(minimum=0, optional=True)("nan", "--wsb-temperature")
    with pytest.raises(ConfigurationError, match=r"^--wsb-alpha: must be between 0 and 1, got 1$"):
        number(inside=(0, 1))("1", "--wsb-alpha")


def test_every_option_is_declared_once_and_says_its_default_once():
    options = all_options()
    assert len({o.flag for o in options}) == len(options) == len({o.ini for o in options})
    for option in options:
        assert "default" not in option.help, f"{option.flag}: the help repeats its default by hand"
        assert option.help_text.count("(default: ") == bool(option.default_help or option.default)
    assert {o.flag for o in options if o.path} == set(PATH_OPTIONS)


def test_the_model_options_are_declared_once_for_every_family_that_calls_a_model():
    for name in ("code", "webbench"):
        assert all(option in family_options(name) for option in MODEL_OPTIONS)
    assert not any(option in family_options("lexbench") for option in MODEL_OPTIONS)


class _Values(dict):
    """Option values as a run hands them to a family, without a pytest config."""

    hook = SimpleNamespace(pytest_websearchbench_add_agents=lambda registry: None)


@pytest.mark.parametrize("name", list(FAMILIES))
def test_a_family_reads_only_the_options_its_table_declares(name, tmp_path):
    values = _Values({option.ini: option.default_value for option in family_options(name)})
    settings = Settings(
        providers=("local",),
        suites=(),
        k=5,
        record_mode=CassetteMode.NONE,
        cassette_dir=tmp_path,
        json_path=None,
        baseline_path=None,
        tolerance=None,
        local_corpus=None,
    )
    family_class(name)().configure(values, settings)  # a KeyError names an option read but not declared


def test_help_lists_every_option_with_its_default(pytester):
    result = pytester.runpytest("--help")
    result.stdout.fnmatch_lines(
        [
            "*--wsb-k=N*declared result budget k (default: 5)*",
            "*--wsb-model=NAME*",
            "*--wsb-model-api=API*",
            "*--wsb-temperature=T*",
            "*--wsb-grades=FILE*",
            "*--wsb-agent=NAME*",
            "*--wsb-repeat=N*",
            "*--wsb-mode=MODE*",
            "*--wsb-selftest*",
        ]
    )


def test_a_bad_value_of_a_family_option_is_a_usage_error_without_a_suite_of_the_family(pytester):
    result = pytester.runpytest("--co", "--wsb-repeat=0")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--wsb-repeat: must be at least 1, got 0*"])


HEAVY = (
    "numpy",
    "matplotlib",
    "jinja2",
    "httpx",
    "vcr",
    "jsonschema",
    "tantivy",
    "pytest_websearchbench.lexbench.family",
    "pytest_websearchbench.codebench.family",
    "pytest_websearchbench.webbench.family",
)
REPORT_HEAVY = f"""
import sys

def pytest_unconfigure(config):
    print("heavy:", sorted(name for name in sys.modules if name in {HEAVY!r}))
"""


def test_importing_the_plugin_imports_no_family_and_no_heavy_library():
    code = f"import sys, pytest_websearchbench.plugin; print(sorted(n for n in sys.modules if n in {HEAVY!r}))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


@pytest.mark.e2e  # pytest in a child process (a fresh interpreter's imports)
@pytest.mark.parametrize("args", [("tests",), ("--help",)])
def test_an_unrelated_run_imports_no_family_and_no_heavy_library(pytester, args):
    pytester.makeconftest(REPORT_HEAVY)
    pytester.makepyfile(**{"tests/test_plain": "def test_plain():\n    assert True\n"})
    result = pytester.runpytest_subprocess(*args, "-s")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["heavy: []"])


@pytest.mark.e2e  # pytest in a child process (a fresh interpreter's imports)
def test_a_suite_run_imports_its_family_only(pytester, tiny_suite):
    pytester.makeconftest(REPORT_HEAVY)
    result = pytester.runpytest_subprocess("suites", "--co", "-q", "-s")
    [loaded] = [line for line in result.outlines if line.startswith("heavy: ")]
    names = ast.literal_eval(loaded[len("heavy: ") :])
    assert [name for name in names if name.endswith(".family")] == ["pytest_websearchbench.lexbench.family"]
    # every line passes the direct shape check, its dates included: jsonschema is imported only to say what is wrong
    assert "jsonschema" not in names


@pytest.mark.parametrize("flag", PATH_OPTIONS)
def test_a_path_option_written_with_a_space_is_one_usage_error(pytester, flag):
    (pytester.path / "somewhere").mkdir()
    result = pytester.runpytest("--co", flag, "somewhere")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            f"*{flag} somewhere: write {flag}=somewhere (one argument): pytest reads a path "
            f"written after a space as a test path*"
        ]
    )


def test_a_cassette_folder_written_with_a_space_no_longer_hides_the_suite(pytester, tmp_path_factory):
    """Issue: ``--wsb-cassette-dir DIR`` made DIR (a folder with its own config file) pytest's rootdir, where
    the suite's name found the suite's cassette folder: "no tests ran", exit 5."""
    cassettes = tmp_path_factory.mktemp("other-project")
    (cassettes / "pytest.ini").write_text("[pytest]\n")
    (cassettes / "lexbench-sample" / "local").mkdir(parents=True)
    spaced = pytester.runpytest("--suite", "lexbench-sample", "--wsb-cassette-dir", str(cassettes), "--co", "-q")
    assert spaced.ret == pytest.ExitCode.USAGE_ERROR
    spaced.stderr.fnmatch_lines([f"*write --wsb-cassette-dir={cassettes} (one argument)*"])
    whole = pytester.runpytest("--suite", "lexbench-sample", f"--wsb-cassette-dir={cassettes}", "--co", "-q")
    whole.stdout.fnmatch_lines(["*55 tests collected*"])


@pytest.mark.parametrize(
    "rate, message",
    [
        ("serpr=5/s", "*--wsb-rate: unknown provider 'serpr': did you mean serper? (pytest --wsb-list lists all *)"),
        ("nosuch=5/s", "*--wsb-rate: unknown provider 'nosuch'; known: *serper* (pytest --wsb-list says more)"),
        ("serper=5", "*--wsb-rate serper: '5' has no unit; write 5/s, 5/min or 5/h*"),
    ],
)
def test_a_rate_for_no_provider_or_without_a_unit_is_a_usage_error(pytester, tiny_suite, rate, message):
    result = pytester.runpytest("suites", "--co", f"--wsb-rate={rate}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_a_rate_for_every_provider_and_one_for_a_known_provider_are_taken(pytester, tiny_suite):
    result = pytester.runpytest("suites", "--co", "-q", "--wsb-rate=*=5/s,serper=300/min")
    result.stdout.fnmatch_lines(["*4 tests collected*"])
