"""What the program agents' sandbox covers (agents.sandbox), unit by unit: this plugin's files in any
site-packages folder it shows, a folder covered around what an agent must keep inside it, and how a program's
record says it was confined."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_websearchbench.webbench.agents.sandbox import (
    Confinement,
    Sandbox,
    confined,
    cover_around,
    plugin_footprint,
    read_confined,
)


def _site(prefix: Path) -> Path:
    site = prefix / "lib" / "python3.11" / "site-packages"
    for folder in ("pytest_websearchbench", "pytest_websearchbench-0.1.0.dist-info", "numpy", "__pycache__"):
        (site / folder).mkdir(parents=True)
    (site / "__editable__.pytest_websearchbench-0.1.0.pth").write_text("/somewhere/checkout\n")
    (site / "__editable___pytest_websearchbench_0_1_0_finder.py").write_text("MAPPING = {}\n")
    (site / "__pycache__" / "__editable___pytest_websearchbench_0_1_0_finder.cpython-311.pyc").write_bytes(b"x")
    (site / "other.pth").write_text("/opt/pytest-websearchbench-src\n")
    (site / "distutils-precedence.pth").write_text("import os\n")
    return site


def test_every_file_of_the_plugin_in_a_shown_site_packages_is_found_and_nothing_else(tmp_path):
    site = _site(tmp_path / "venv")
    found = set(plugin_footprint([tmp_path / "venv"]))
    mine = {
        site / "pytest_websearchbench",
        site / "pytest_websearchbench-0.1.0.dist-info",
        site / "__editable__.pytest_websearchbench-0.1.0.pth",
        site / "__editable___pytest_websearchbench_0_1_0_finder.py",
        site / "__pycache__" / "__editable___pytest_websearchbench_0_1_0_finder.cpython-311.pyc",
        site / "other.pth",
    }
    assert mine <= found
    assert not {site / "numpy", site / "distutils-precedence.pth", site / "__pycache__"} & found


def test_a_folder_is_covered_whole_or_around_what_must_stay(tmp_path):
    checkout = tmp_path / "checkout"
    for folder in ("pytest_websearchbench", "suites", "tests/webbench/agents", "tests/core", ".venv/bin"):
        (checkout / folder).mkdir(parents=True)
    (checkout / "pyproject.toml").write_text("")
    (checkout / "tests" / "conftest.py").write_text("")
    assert cover_around(checkout, []) == ["--tmpfs", str(checkout)]
    agent, venv = checkout / "tests" / "webbench" / "agents", checkout / ".venv"
    argv = cover_around(checkout, [agent, venv])
    covered = {
        Path(argv[i + 1]) if argv[i] == "--tmpfs" else Path(argv[i + 2])
        for i in range(0, len(argv), 1)
        if argv[i] in ("--tmpfs", "--ro-bind")
    }
    assert covered == {
        checkout / "pytest_websearchbench",
        checkout / "suites",
        checkout / "pyproject.toml",
        checkout / "tests" / "core",
        checkout / "tests" / "conftest.py",
    }
    assert cover_around(tmp_path / "missing", []) == []  # nothing there: nothing to cover (bwrap would fail)


@pytest.mark.parametrize(
    "own_network, note, unsandboxed, record, read, counted",
    [
        (True, "", "", "bwrap", Confinement(True, ""), "3 in bwrap"),
        (
            False,
            "--wsb-agent-net=host",
            "",
            "bwrap; UNSANDBOXED NETWORK (--wsb-agent-net=host)",
            Confinement(True, "UNSANDBOXED NETWORK (--wsb-agent-net=host)"),
            "3 in bwrap, UNSANDBOXED NETWORK (--wsb-agent-net=host)",
        ),
        (
            None,
            "",
            "--wsb-sandbox=off",
            "none: --wsb-sandbox=off",
            Confinement(False, "UNSANDBOXED (--wsb-sandbox=off)"),
            "3 UNSANDBOXED (--wsb-sandbox=off)",
        ),
        (
            None,
            "",
            "",
            "none: not asked for",
            Confinement(False, "UNSANDBOXED (not asked for)"),
            "3 UNSANDBOXED (not asked for)",
        ),
    ],
)
def test_a_programs_confinement_is_recorded_in_words_and_read_back_by_one_reader(
    own_network, note, unsandboxed, record, read, counted
):
    sandbox = None
    if own_network is not None:
        sandbox = Sandbox("bwrap", (), (), own_network=own_network, network_note=note)
    assert confined(sandbox, unsandboxed) == record
    assert read_confined(record) == read
    assert read.counted(3) == counted
