"""Installed from a wheel and run from an empty folder, offline: the wheel carries the bundled
suites, their cassettes and the sample web, and every bundled suite replays from them.

The fresh virtual environment takes the plugin from the wheel only; its dependencies are the
running environment's, put on its path by a plain ``.pth`` line (not processed as a site dir, so
this checkout's editable install stays out of it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from conftest import child_environ

pytestmark = pytest.mark.e2e  # builds and installs the wheel

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built_wheel(tmp_path_factory) -> Path:
    """The wheel built from this checkout, its contents checked."""
    root = tmp_path_factory.mktemp("wheel")
    # built from a copy: setuptools builds in the source tree (build/, *.egg-info), and under -n 2 both
    # workers may build this module's fixture at once
    source = root / "source"
    shutil.copytree(
        REPO,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis"
        ),
    )
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(root)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = root.glob("pytest_websearchbench-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    # pyproject lists the packages one by one: a package missing from the list is missing here
    packages = sorted(str(p.parent.relative_to(REPO)) for p in (REPO / "pytest_websearchbench").rglob("__init__.py"))
    for package in packages:
        assert f"{package}/__init__.py" in names, f"{package} is not in pyproject's [tool.setuptools] packages"
    for needed in (
        "pytest_websearchbench/_bundled/suites/sample-web/corpus.jsonl",
        "pytest_websearchbench/_bundled/suites/lexbench-sample/suite.json",
        "pytest_websearchbench/_bundled/cassettes/lexbench-sample/local/q001.yaml",
        "pytest_websearchbench/schemas/suite.schema.json",
    ):
        assert needed in names, needed
    return wheel


@pytest.fixture(scope="module")
def installed(built_wheel) -> Path:
    """A fresh venv with the plugin installed from the wheel built from this checkout; its python."""
    wheel = built_wheel
    venv = wheel.parent / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "outer-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", purelib, str(wheel)],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr[-2000:]
    return python


def test_the_docs_state_the_wheels_size(built_wheel):
    stated = re.search(r"The wheel is about ([\d.]+) MB", (REPO / "docs" / "getting-started.md").read_text("utf-8"))
    assert stated, "docs/getting-started.md no longer says how large the wheel is"
    # "about": within 5 %, so a size on a rounding edge (2.05 MB) does not flip the check with every new file
    size = built_wheel.stat().st_size / 1e6
    assert abs(size - float(stated.group(1))) <= 0.05 * size, (
        f"the wheel is {size:.2f} MB, docs/getting-started.md says {stated.group(1)}"
    )


def run_in_empty_folder(python: Path, folder: Path, *args: str) -> subprocess.CompletedProcess:
    folder.mkdir()
    env = child_environ(drop=("PYTEST_", "WSB_", "PYTHON"))
    return subprocess.run(
        [str(python), "-m", "pytest", "-p", "no:cacheprovider", "-q", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_the_plugin_comes_from_the_wheel(installed, tmp_path):
    where = subprocess.run(
        [str(installed), "-c", "import pytest_websearchbench as p; print(p.__file__)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=True,
    ).stdout
    assert str(REPO) not in where and "site-packages" in where


@pytest.mark.parametrize(
    ("args", "outcome"),
    [
        (("--suite", "lexbench-sample", "--wsb-record-mode=none"), "55 passed"),
        (("--suite", "code-sample", "--wsb-selftest"), "32 passed"),
        (("--suite", "webbench-sample"), "28 passed"),
    ],
)
def test_bundled_suites_run_from_an_empty_folder_offline(installed, tmp_path, args, outcome):
    folder = tmp_path / "empty"
    result = run_in_empty_folder(installed, folder, *args)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert outcome in result.stdout.splitlines()[-1]
    assert not any(folder.iterdir()), f"the run wrote into the user's folder: {list(folder.iterdir())}"


def test_a_bundled_suites_test_ids_are_the_same_wherever_the_plugin_is_installed(installed, tmp_path):
    result = run_in_empty_folder(
        installed, tmp_path / "empty", "--suite", "lexbench-sample", "--co", "--junitxml=../ids.xml"
    )
    ids = [line for line in result.stdout.splitlines() if "::" in line]
    assert ids[0] == "lexbench-sample::q001[local]" and len(ids) == 55, result.stdout[-2000:]
    junit = (tmp_path / "ids.xml").read_text()
    assert "site-packages" not in junit and "venv" not in junit
    # and the printed id is an argument, as an item's id in the checkout is
    again = run_in_empty_folder(installed, tmp_path / "again", "lexbench-sample::q003[local]", "--wsb-record-mode=none")
    assert again.returncode == 0 and "1 passed" in again.stdout.splitlines()[-1], again.stdout[-2000:]


def test_an_agent_cannot_rebuild_its_task_from_the_installed_wheel_in_the_sandbox(installed, tmp_path):
    from conftest import require_sandbox

    require_sandbox("program agents cannot be sandboxed")
    # the forger of tests/webbench/test_sandbox_escapes.py, on the plugin as users install it: the wheel's own
    # generator rebuilds the task whose brief it was given and replays its oracle route
    folder = tmp_path / "agent"
    folder.mkdir()
    forger = folder / "rebuild.py"
    forger.write_text(
        f"#!{installed}\n"
        "import json, os, subprocess, sys\n"
        "try:\n"
        "    from pytest_websearchbench.webbench.tasks.builder import build_task\n"
        "    from pytest_websearchbench.webbench.tasks.generate import planned\n"
        "except ImportError as exc:\n"
        "    sys.exit(f'no generator in sight: {exc.name}')\n"
        "brief = open(os.environ['WSB_BRIEF_FILE'], encoding='utf-8').read()\n"
        "for _, template, seed, outcome in planned():\n"
        "    task = build_task(template, seed, outcome)\n"
        "    if task.instruction == brief:\n"
        "        route = ''.join(json.dumps(a) + '\\n' for a in task.routes['oracle'])\n"
        "        subprocess.run(['browser'], input=route, text=True, stdout=subprocess.DEVNULL)\n"
        "        sys.exit(print('rebuilt', task.name))\n"
    )
    forger.chmod(0o755)
    args = ("--suite", "webbench-sample", "--wsb-agent", f"cmd:{forger}", "-k", "session-slot-ca4b11-s0[")
    forged = run_in_empty_folder(installed, tmp_path / "off", *args, "--wsb-sandbox=off")
    assert "1 passed" in forged.stdout.splitlines()[-1], forged.stdout[-3000:]  # what the sandbox must stop
    sandboxed = run_in_empty_folder(installed, tmp_path / "on", *args)
    assert "1 error" in sandboxed.stdout.splitlines()[-1], sandboxed.stdout[-3000:]
    assert "(bwrap); its last words: no generator in sight: pytest_websearchbench" in sandboxed.stdout
