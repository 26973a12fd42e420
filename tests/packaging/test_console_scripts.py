"""Every console script pyproject declares answers ``--help`` (each subcommand too) under its own
name, the ``python -m`` spellings the docs show still run, and only ``__main__`` modules import
a command-line module (a library module that did would close an import circle through it)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import tomllib

import pytest

from conftest import REPO

SCRIPTS = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
SUBCOMMANDS = {
    "wsb-lexbench": [["pool"], ["sheet"], ["sheet", "export"], ["sheet", "import"], ["judge"]],
    "wsb-webbench": [["serve"], ["browse"], ["verify"], ["generate"]],
    "wsb-emulate": [["provider"], ["model"]],
    "wsb-report": [["parity"]],
}
CALLS = [(name, words) for name in SCRIPTS for words in [[], *SUBCOMMANDS.get(name, [])]]


def _target(name: str):
    module, function = SCRIPTS[name].split(":")
    return getattr(importlib.import_module(module), function)


def test_the_subcommands_listed_here_are_the_scripts_declared():
    assert set(SUBCOMMANDS) <= set(SCRIPTS)
    from pytest_websearchbench.webbench.cli import COMMANDS

    assert [words[0] for words in SUBCOMMANDS["wsb-webbench"]] == list(COMMANDS)


@pytest.mark.parametrize(("name", "words"), CALLS, ids=[" ".join([n, *w]) for n, w in CALLS])
def test_each_console_script_answers_help_under_its_name(name, words, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", [f"/venv/bin/{name}", *words, "--help"])  # as the installed script runs
    with pytest.raises(SystemExit) as exited:
        _target(name)([*words, "--help"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: {' '.join([name, *words])} ")


@pytest.mark.parametrize("argv", [[], ["bogus"], ["--task", "x"]])
def test_webbench_refuses_a_missing_or_unknown_command(argv, capsys):
    from pytest_websearchbench.webbench.cli import main

    with pytest.raises(SystemExit) as exited:
        main(argv, prog="wsb-webbench")
    assert exited.value.code == 2 and "usage: wsb-webbench" in capsys.readouterr().err


@pytest.mark.parametrize(
    "module",
    [
        "pytest_websearchbench.lexbench",
        "pytest_websearchbench.report",
        "pytest_websearchbench.engine",
        "pytest_websearchbench.webbench.webapps.server",
        "pytest_websearchbench.emulate",
    ],
)
@pytest.mark.e2e
def test_the_python_m_spellings_still_run(module):
    words = {"lexbench": ["pool"], "emulate": ["provider"]}.get(module.rpartition(".")[2], [])
    done = subprocess.run([sys.executable, "-m", module, *words, "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("usage: ")


@pytest.mark.e2e
def test_only_main_modules_import_a_command_line_module():
    commands = {value.split(":")[0] for value in SCRIPTS.values()}
    offenders = []
    for path in (REPO / "pytest_websearchbench").rglob("*.py"):
        if path.name == "__main__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):  # function-level imports too
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:  # from a.b import cli, or from a.b.cli import x
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            else:
                continue
            offenders += [f"{path.relative_to(REPO)} imports {name}" for name in names if name in commands]
    assert not offenders
