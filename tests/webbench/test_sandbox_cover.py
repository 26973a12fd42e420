"""What the program agents' sandbox covers (agents.sandbox), unit by unit: this plugin's files in any
site-packages folder it shows, and a folder covered around what an agent must keep inside it."""

from __future__ import annotations

from pathlib import Path

from pytest_websearchbench.webbench.agents.sandbox import cover_around, plugin_footprint


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
