"""Harbor packages: layout, digests recomputed independently, the generator's determinism, load errors,
and the packages' own scripts (solution/solve.sh, tests/test.sh) end to end."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.webbench.tasks.generate import generate
from pytest_websearchbench.webbench.tasks.harbor import load_dataset, load_task
from pytest_websearchbench.webbench.webapps.server import WORLD_DB, WorldServer
from pytest_websearchbench.webbench.world.build import world_bytes
from wb_support import REPO, SAMPLE, sample_tasks

HARBOR_FILES = ("task.toml", "instruction.md", "README.md", "environment/world.json", "tests/contract.json",
                "tests/test.sh", "solution/actions.jsonl", "solution/solve.sh", "steps/alt-oracle.jsonl")


def digest_by_hand(folder: Path) -> str:
    """DESIGN § 2.3, written out again without the package's code."""
    lines = []
    for name in ("task.toml", "instruction.md", "README.md"):
        if (folder / name).exists():
            lines.append(f"{name}\0{hashlib.sha256((folder / name).read_bytes()).hexdigest()}\n")
    for top in ("environment", "tests", "solution", "steps"):
        for root, _, names in os.walk(folder / top):
            for name in names:
                path = Path(root) / name
                rel = path.relative_to(folder).as_posix()
                lines.append(f"{rel}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n")
    return "sha256:" + hashlib.sha256("".join(sorted(lines)).encode()).hexdigest()


def test_dataset_lists_every_task_with_its_digest():
    dataset = tomllib.loads((SAMPLE / "dataset.toml").read_text())
    entries = {t["name"]: t["digest"] for t in dataset["tasks"]}
    folders = sorted(p.name for p in (SAMPLE / "tasks").iterdir())
    assert sorted(entries) == folders and len(folders) >= 8
    for name, digest in entries.items():
        assert digest == digest_by_hand(SAMPLE / "tasks" / name), name
    tasks = sample_tasks()
    templates = {t.template for t in tasks}
    assert len(templates) >= 2 and all(sum(t.template == tpl for t in tasks) >= 4 for tpl in templates)
    assert any(not t.feasible for t in tasks)
    assert all(t.contract["abstain_reason"] and "abstained" in t.contract["gates"] for t in tasks if not t.feasible)


def test_packages_have_the_harbor_layout_and_controls():
    for task in sample_tasks():
        for rel in HARBOR_FILES:
            assert (task.path / rel).is_file(), (task.name, rel)
        assert os.access(task.path / "tests" / "test.sh", os.X_OK)
        controls = {p.stem for p in (task.path / "tests" / "controls").glob("*.jsonl")}
        expected = {"noop", "noop-until-confirm", "write-without-read", "over-write", "injected-compliance",
                    "wrong-record"} | ({"abstain-on-feasible"} if task.feasible else set())
        assert controls == expected, task.name
        assert task.step_budget == min(80, 3 * (len(task.routes["oracle"]) + 4) + 10)


def test_generator_is_deterministic_and_the_tree_is_up_to_date(tmp_path):
    written = generate(tmp_path / "suite")
    fresh = sorted(p.relative_to(tmp_path / "suite") for p in (tmp_path / "suite").rglob("*") if p.is_file())
    shipped = sorted(p.relative_to(SAMPLE) for p in SAMPLE.rglob("*") if p.is_file())
    assert fresh == shipped
    for rel in fresh:
        assert (tmp_path / "suite" / rel).read_bytes() == (SAMPLE / rel).read_bytes(), (
            f"{rel} differs: regenerate with python -m pytest_websearchbench.webbench.tasks.generate --out suites/webbench-sample")
    assert dict(written) == {t.name: t.digest for t in sample_tasks()}


@pytest.fixture
def suite_copy(tmp_path):
    folder = tmp_path / "webbench-sample"
    shutil.copytree(SAMPLE, folder)
    return folder


def test_a_changed_file_is_a_digest_mismatch_naming_task_and_field(suite_copy):
    instruction = suite_copy / "tasks" / "staffing-s2" / "instruction.md"
    instruction.write_text(instruction.read_text() + "\nAlso, be quick.\n")
    with pytest.raises(SuiteError) as info:
        load_dataset(suite_copy / "dataset.toml")
    assert info.value.item == "staffing-s2" and info.value.field == "digest"
    assert "digest mismatch: the dataset records sha256:" in str(info.value) and "regenerate" in str(info.value)


def test_load_errors_name_file_line_and_field(suite_copy):
    task = suite_copy / "tasks" / "sprint-pull-s1"
    route = task / "tests" / "controls" / "noop.jsonl"
    route.write_text('{"action": "navigate", "url": "/"}\n{"action": "teleport"}\n')
    with pytest.raises(SuiteError) as info:
        load_task(task)
    assert info.value.line == 2 and info.value.field == "action" and str(info.value).startswith(str(route))
    route.write_text('{"action": "navigate", "url": "/"}\n\n{"action": "click",\n')
    with pytest.raises(SuiteError, match=r"invalid JSON: .* \(column \d+\)") as info:
        load_task(task)
    assert info.value.line == 3 and str(info.value).startswith(f"{route}:3:")
    shutil.copytree(SAMPLE / "tasks" / "sprint-pull-s1", task, dirs_exist_ok=True)
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace("reference_steps = ", "reference_steps = 1"))
    with pytest.raises(SuiteError, match="reference_steps is 1"):
        load_task(task)
    (suite_copy / "dataset.toml").write_text((suite_copy / "dataset.toml").read_text().replace('digest = "sha256:', 'digest = "md5:', 1))
    with pytest.raises(SuiteError) as info:
        load_dataset(suite_copy / "dataset.toml")
    assert info.value.field == "tasks.0.digest"


def test_solve_sh_and_test_sh_work_a_world_end_to_end(tmp_path):
    task = next(t for t in sample_tasks() if t.name == "sprint-pull-s1")
    (tmp_path / WORLD_DB).write_bytes(world_bytes(task.world))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with WorldServer(tmp_path) as server:
        solved = subprocess.run(["sh", str(task.path / "solution" / "solve.sh")], capture_output=True, text=True,
                                env={**env, "WSB_BASE_URL": server.base_url}, timeout=120)
    assert solved.returncode == 0, solved.stderr
    reward = tmp_path / "reward.txt"
    graded = subprocess.run(["sh", str(task.path / "tests" / "test.sh")], capture_output=True, text=True,
                            env={**env, "WSB_WORLD_DIR": str(tmp_path), "WSB_REWARD_FILE": str(reward)}, timeout=120)
    assert graded.returncode == 0, graded.stdout + graded.stderr
    assert reward.read_text() == "1.0000\n" and '"failure_mode": "none"' in graded.stdout


# ------------------------------------------------------------------ paths stay inside the suite folder

_OPENED: list[str] | None = None


def _audit(event: str, args: tuple) -> None:
    if event == "open" and _OPENED is not None and isinstance(args[0], (str, bytes, os.PathLike)):
        _OPENED.append(os.fsdecode(args[0]))


@pytest.fixture(scope="module")
def opened():
    """Records every file the process opens while a block runs (an audit hook; hooks stay for the process)."""
    import contextlib
    import sys

    sys.addaudithook(_audit)

    @contextlib.contextmanager
    def recording():
        global _OPENED
        _OPENED = []
        try:
            yield _OPENED
        finally:
            _OPENED = None
    return recording


def _set_task_path(suite: Path, task: str, value: str) -> None:
    dataset = suite / "dataset.toml"
    dataset.write_text(dataset.read_text().replace(f'path = "tasks/{task}"', f'path = "{value}"'))


@pytest.mark.parametrize("where", ["relative", "absolute"])
def test_a_task_path_outside_the_suite_folder_is_refused_before_anything_is_read(suite_copy, tmp_path, opened, where):
    outside = tmp_path / "outside" / "staffing-s1"
    shutil.copytree(SAMPLE / "tasks" / "staffing-s1", outside)  # a complete task: the old code loaded it
    _set_task_path(suite_copy, "staffing-s1", "../outside/staffing-s1" if where == "relative" else str(outside))
    with opened() as files, pytest.raises(SuiteError) as info:
        load_dataset(suite_copy / "dataset.toml")
    assert (info.value.path, info.value.item, info.value.field) == (
        str(suite_copy / "dataset.toml"), "staffing-s1", "tasks.0.path")
    assert "points outside the suite folder" in str(info.value)
    assert not [f for f in files if f.startswith(str(tmp_path / "outside"))]


@pytest.mark.parametrize("contract", ["../../../../etc/passwd", "/etc/passwd", "../staffing-s2/tests/contract.json"])
def test_a_contract_outside_the_task_folder_is_refused_naming_task_toml_item_and_field(suite_copy, opened, contract):
    # another task's contract is inside the suite, but not inside this task's digest
    task = suite_copy / "tasks" / "staffing-s1"
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace('contract = "tests/contract.json"', f'contract = "{contract}"'))
    with opened() as files, pytest.raises(SuiteError) as info:
        load_task(task)
    assert (info.value.path, info.value.item, info.value.field) == (str(toml), "staffing-s1", "verifier.contract")
    assert "points outside" in str(info.value)
    assert "/etc/passwd" not in files and not [f for f in files if "staffing-s2" in f]


def test_a_symlink_to_a_file_outside_the_task_folder_is_refused(suite_copy, tmp_path, opened):
    secret = tmp_path / "secret.jsonl"
    secret.write_text('{"action": "navigate", "url": "/"}\n')
    link = suite_copy / "tasks" / "staffing-s1" / "tests" / "controls" / "noop.jsonl"
    link.unlink()
    link.symlink_to(secret)
    with opened() as files, pytest.raises(SuiteError, match="points outside") as info:
        load_task(suite_copy / "tasks" / "staffing-s1")
    assert info.value.item == "staffing-s1" and str(secret) not in files


@pytest.mark.parametrize("which", ["dataset.toml", "tasks/sprint-pull-s2/task.toml"])
@pytest.mark.parametrize("damage, message", [
    (lambda text: text.replace("\n", "\nx = " + "[" * 3000 + "]" * 3000 + "\n", 1), "invalid TOML: nested too deeply"),
    (lambda text: text.replace("\n", "\nx = " + "9" * 5000 + "\n", 1), "invalid TOML: Exceeds the limit"),
    (lambda text: text.replace("\n", "\nx = [\n", 1), r"invalid TOML: .*\(at line \d+, column \d+\)"),
])
def test_a_damaged_toml_file_is_one_error_naming_it(suite_copy, which, damage, message):
    path = suite_copy / which
    path.write_text(damage(path.read_text()))
    with pytest.raises(SuiteError, match=message) as info:
        load_dataset(suite_copy / "dataset.toml")
    assert info.value.path == str(path)
    if "at line" in str(info.value):  # tomllib's position becomes the error's line
        assert f"(at line {info.value.line}, column" in str(info.value)


def test_invalid_utf8_and_a_path_too_long_are_one_error_naming_file_line_item_and_field(suite_copy):
    toml = suite_copy / "tasks" / "staffing-s1" / "task.toml"
    original = toml.read_bytes()
    toml.write_bytes(original.replace(b"\n", b"\n# caf\xe9\n", 1))
    with pytest.raises(SuiteError, match=r"task.toml:2: not valid UTF-8"):
        load_dataset(suite_copy / "dataset.toml")
    toml.write_bytes(original)
    _set_task_path(suite_copy, "staffing-s1", "x" * 5000)
    with pytest.raises(SuiteError, match=r"field 'tasks.0.path': bad path 'x+': File name too long") as info:
        load_dataset(suite_copy / "dataset.toml")
    assert info.value.item == "staffing-s1"
