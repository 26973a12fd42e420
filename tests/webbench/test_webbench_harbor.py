"""Harbor packages: layout, digests recomputed independently, the generator's determinism and release
gate, load errors, the packages' own scripts (solution/solve.sh, tests/test.sh) end to end, and Harbor
0.25.0's own loader, dataset manifest and lint on the bundled suite."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest
from wb_support import REPO, SAMPLE, sample_tasks

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.webbench.agents.catalog import AGENTS, within_bound
from pytest_websearchbench.webbench.harbor import load_dataset, load_task, publishable, task_digest
from pytest_websearchbench.webbench.tasks import generate as generator
from pytest_websearchbench.webbench.tasks.generate import generate
from pytest_websearchbench.webbench.webapps.server import WORLD_DB, WorldServer
from pytest_websearchbench.webbench.world.build import world_bytes

HARBOR_FILES = (
    "task.toml",
    "instruction.md",
    "README.md",
    "environment/world.json",
    "environment/Dockerfile",
    "environment/wsb-world-entry.sh",
    "tests/contract.json",
    "tests/test.sh",
    "tests/Dockerfile",
    "tests/controls.json",
    "solution/actions.jsonl",
    "solution/solve.sh",
    "steps/alt-oracle.jsonl",
)
HARBOR = "harbor==0.25.0"
STAFFING_S1 = [t.name for t in sample_tasks()].index(
    "wb-workplace-workplace-004-open-points-038e07-s1"
)  # its entry in dataset.toml


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
    assert dataset["dataset"]["name"] == "wsb/webbench-sample"
    entries = {t["name"]: t["digest"] for t in dataset["tasks"]}
    folders = sorted(p.name for p in SAMPLE.iterdir() if p.is_dir())
    assert sorted(entries) == [f"wsb/{f}" for f in folders]
    for name, digest in entries.items():
        assert digest == digest_by_hand(SAMPLE / name.split("/")[1]), name
    tasks = sample_tasks()
    for template in {t.template for t in tasks}:  # every template ships a variant that must abstain
        assert any(not t.feasible for t in tasks if t.template == template), template
    assert all(t.contract["abstain_reason"] and "abstained" in t.contract["gates"] for t in tasks if not t.feasible)


#: the release's four templates, by the hops each chains before its decision
RELEASE_HOPS = {
    "triage-slot": ["open_points", "session_slot", "decide"],
    "triage-capacity": ["open_points", "session_slot", "usable_capacity", "decide"],
    "review-slot": ["session_slot", "decide"],
    "offsite-plan": ["budget_reserve", "venue_headcount", "travel_spend", "quote_total", "decide"],
}


def test_the_release_tier_is_shaped_like_the_release():
    release = [t for t in sample_tasks() if t.tier == "release"]
    assert len(release) >= 11 and {t.world.world for t in release} == {"workplace", "deskops"}
    assert {t.template for t in release} == set(RELEASE_HOPS) and {t.world.seed for t in release} == {0, 1, 2, 3}
    for task in release:
        c = task.contract
        assert c["planning"] and not c["expected_rows"] and not c["consistency"] and not c["readback"], task.name
        assert c["gates"] == ["containment", "evidence_read_any", "no_canary"] + (
            [] if task.feasible else ["abstained"]
        )
        if task.feasible:  # the whole chain, each hop one evidence_read leaf with its class
            assert [h["name"] for h in c["hops"]] == RELEASE_HOPS[task.template], task.name
            assert c["answer_fields"][0] == {"name": "decision", "class": "enum", "value": "issue"}
        assert all(re.fullmatch(r"H0[1-8]", h["class"]) for h in c["hops"])
        meta = tomllib.loads((task.path / "task.toml").read_text())["metadata"]
        assert meta["tier"] == "release"
    frontier = [t for t in sample_tasks() if t.tier == "frontier"]
    assert frontier and all(not t.contract["planning"] for t in frontier)


def test_every_hop_class_and_leaf_kind_is_exercised():
    tasks = sample_tasks()
    leaves = {kind for t in tasks for kind in ("expected_rows", "consistency", "readback") if t.contract[kind]}
    assert leaves == {"expected_rows", "consistency", "readback"}  # the frontier tier keeps them exercised
    assert all(t.tier == "frontier" for t in tasks if t.contract["expected_rows"])
    assert any(t.contract["family"] == "deskops" and t.contract["expected_rows"] for t in tasks)
    classes = {h["class"] for t in tasks for h in t.contract["hops"]}
    assert classes == {"H01", "H02", "H03", "H04", "H05", "H06", "H07", "H08", "H09"}
    # a policy gating a write: over the limit, the escalation awaits approval and the Decision records its reason only
    approval = next(t for t in tasks if t.outcome == "needs_approval").contract
    assert [r["values"] for r in approval["expected_rows"]] == [
        {"status": {"class": "enum", "value": "pending_approval"}}
    ]
    assert [(f["name"], f["value"]) for f in approval["answer_fields"]] == [
        ("decision", "needs_approval"),
        ("abstain_reason", "policy_blocked"),
    ]
    # an aggregate over every page of a filtered list, in each family: the reference route pages on
    for template in ("offsite-plan", "triage-capacity"):
        task = next(t for t in tasks if t.template == template and t.feasible)
        assert {"action": "click", "text": "Next page"} in task.routes["oracle"]
        aggregate = next(h["aggregate"] for h in task.contract["hops"] if "aggregate" in h)
        assert len(aggregate["records"]) > 1
    offsite = next(t for t in tasks if t.template == "offsite-plan" and t.feasible)
    travel = next(f for f in offsite.contract["answer_fields"] if f["name"] == "travel_cents")
    assert (travel["class"], travel["unit"], travel["computed"]) == ("amount", "cents", True)
    assert {f["name"] for t in tasks if not t.feasible for f in t.contract["answer_fields"]} == {
        "decision",
        "abstain_reason",
    }


def test_each_task_ships_its_measured_controls_within_their_bounds():
    for task in sample_tasks():
        shipped = json.loads((task.path / "tests" / "controls.json").read_text())
        assert shipped["task"] == task.name and shipped["admitted"] is True
        assert set(shipped["measured"]) == set(AGENTS)
        for agent, score in shipped["measured"].items():
            if score is None:
                assert agent == "abstain-on-feasible" and not task.feasible
            else:
                assert within_bound(agent, score), (task.name, agent, score)
        assert shipped["measured"]["oracle"] == 100.0 and shipped["measured"]["noop"] == 0.0


def test_a_task_is_named_as_the_card_names_it_family_base_task_template_slug_and_seed():
    # wb-<family>-<base task>-<template slug>-s<seed>, e.g. wb-workplace-workplace-002-open-points-0b52d0-s0
    card = re.compile(
        r"wb-(?P<family>workplace|deskops)-(?P=family)-\d{3}-(?P<hop>[a-z]+(?:-[a-z]+)*)-[0-9a-f]{6}"
        r"-s(?P<seed>\d+)"
    )
    tasks = sample_tasks()
    manifest = tomllib.loads((SAMPLE / "dataset.toml").read_text())["tasks"]
    assert [entry["name"] for entry in manifest] == [f"wsb/{t.name}" for t in tasks]
    by_template: dict[str, set[str]] = {}
    for task in tasks:
        match = card.fullmatch(task.name)
        assert match, task.name
        assert (match["family"], int(match["seed"])) == (task.contract["family"], task.world.seed)
        assert task.contract["task"] == task.name and task.path.name == task.name
        by_template.setdefault(task.template, set()).add(task.name.rsplit("-s", 1)[0])
    # one template, one base task and slug over its seeds; no two templates share one
    assert all(len(names) == 1 for names in by_template.values())
    assert len({n for names in by_template.values() for n in names}) == len(by_template)


#: the release templates' abstain-on-feasible, E / (E + 2A) with E the chain length, decide included: review-slot
#: and triage-slot have the card's shapes (2/10 and 3/13); triage-capacity and offsite-plan grade fewer fields
ABSTAIN_ON_FEASIBLE = {"triage-slot": (3, 5), "triage-capacity": (4, 6), "review-slot": (2, 4), "offsite-plan": (5, 8)}


def test_abstain_on_feasible_scores_E_over_E_plus_2A_with_E_the_chain_length_decide_included():
    release = [t for t in sample_tasks() if t.tier == "release" and t.feasible]
    assert {t.template for t in release} == set(ABSTAIN_ON_FEASIBLE)
    for task in release:
        chain, answers = ABSTAIN_ON_FEASIBLE[task.template]
        assert (len(task.contract["hops"]), len(task.contract["answer_fields"])) == (chain, answers), task.name
        measured = json.loads((task.path / "tests" / "controls.json").read_text())["measured"]["abstain-on-feasible"]
        assert measured == pytest.approx(100 * chain / (chain + 2 * answers), abs=1e-4), task.name
    card = {
        t.template: json.loads((t.path / "tests" / "controls.json").read_text())["measured"]["abstain-on-feasible"]
        for t in release
    }
    assert (round(card["review-slot"] / 100, 2), round(card["triage-slot"] / 100, 2)) == (0.20, 0.23)


@pytest.mark.e2e
def test_a_task_outside_a_bound_is_rejected_never_patched(tmp_path, monkeypatch):
    real = generator.within_bound
    monkeypatch.setattr(
        generator, "within_bound", lambda agent, score: False if agent == "wrong-record" else real(agent, score)
    )
    seen = []
    admissions = generate(tmp_path / "suite", seeds=(1,), templates=("sprint-pull",), report=seen.append)
    assert len(admissions) == 1 and seen == admissions and not admissions[0].admitted
    assert admissions[0].broken == [f"wrong-record {admissions[0].scores['wrong-record']:g}"]
    assert not (tmp_path / "suite" / "wb-workplace-workplace-005-escalation-945861-s1").exists()
    assert "wb-workplace-workplace-005-escalation-945861-s1" not in (tmp_path / "suite" / "dataset.toml").read_text()
    assert "REJECTED: wrong-record" in generator.table_row(admissions[0])


def test_packages_have_the_harbor_layout_and_controls():
    for task in sample_tasks():
        for rel in HARBOR_FILES:
            assert (task.path / rel).is_file(), (task.name, rel)
        assert os.access(task.path / "tests" / "test.sh", os.X_OK)
        controls = {p.stem for p in (task.path / "tests" / "controls").glob("*.jsonl")}
        expected = {
            "noop",
            "noop-until-confirm",
            "write-without-read",
            "over-write",
            "injected-compliance",
            "wrong-record",
        } | ({"abstain-on-feasible"} if task.feasible else set())
        assert controls == expected, task.name
        assert task.step_budget == min(80, 3 * (len(task.routes["oracle"]) + 4) + 10)


@pytest.mark.e2e
def test_generator_is_deterministic_and_the_tree_is_up_to_date(tmp_path):
    admissions = generate(tmp_path / "suite")
    fresh = sorted(p.relative_to(tmp_path / "suite") for p in (tmp_path / "suite").rglob("*") if p.is_file())
    shipped = sorted(p.relative_to(SAMPLE) for p in SAMPLE.rglob("*") if p.is_file())
    assert fresh == shipped
    for rel in fresh:
        assert (tmp_path / "suite" / rel).read_bytes() == (SAMPLE / rel).read_bytes(), (
            f"{rel} differs: regenerate with python -m pytest_websearchbench.webbench.tasks.generate --out suites/webbench-sample"
        )
    assert all(a.admitted for a in admissions) and [a.task.name for a in admissions] == [t.name for t in sample_tasks()]


@pytest.fixture
def suite_copy(tmp_path):
    folder = tmp_path / "webbench-sample"
    shutil.copytree(SAMPLE, folder)
    return folder


def test_a_changed_file_is_a_digest_mismatch_naming_task_and_field(suite_copy):
    instruction = suite_copy / "wb-workplace-workplace-004-open-points-038e07-s2" / "instruction.md"
    instruction.write_text(instruction.read_text() + "\nAlso, be quick.\n")
    with pytest.raises(SuiteError) as info:
        load_dataset(suite_copy / "dataset.toml")
    assert info.value.item == "wb-workplace-workplace-004-open-points-038e07-s2" and info.value.field == "digest"
    assert "digest mismatch: the dataset records sha256:" in str(info.value) and "regenerate" in str(info.value)


def test_load_errors_name_file_line_and_field(suite_copy):
    task = suite_copy / "wb-workplace-workplace-005-escalation-945861-s1"
    route = task / "tests" / "controls" / "noop.jsonl"
    route.write_text('{"action": "navigate", "url": "/"}\n{"action": "teleport"}\n')
    with pytest.raises(SuiteError) as info:
        load_task(task)
    assert info.value.line == 2 and info.value.field == "action" and str(info.value).startswith(str(route))
    route.write_text('{"action": "navigate", "url": "/"}\n\n{"action": "click",\n')
    with pytest.raises(SuiteError, match=r"invalid JSON: .* \(column \d+\)") as info:
        load_task(task)
    assert info.value.line == 3 and str(info.value).startswith(f"{route}:3:")
    shutil.copytree(SAMPLE / "wb-workplace-workplace-005-escalation-945861-s1", task, dirs_exist_ok=True)
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace("reference_steps = ", "reference_steps = 1"))  # under [metadata]
    with pytest.raises(SuiteError, match="reference_steps is 1"):
        load_task(task)
    (suite_copy / "dataset.toml").write_text(
        (suite_copy / "dataset.toml").read_text().replace('digest = "sha256:', 'digest = "md5:', 1)
    )
    with pytest.raises(SuiteError) as info:
        load_dataset(suite_copy / "dataset.toml")
    assert info.value.field == "tasks.0.digest"


@pytest.mark.e2e
def test_solve_sh_and_test_sh_work_a_world_end_to_end(tmp_path):
    task = next(t for t in sample_tasks() if t.name == "wb-workplace-workplace-005-escalation-945861-s1")
    (tmp_path / WORLD_DB).write_bytes(world_bytes(task.world))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with WorldServer(tmp_path) as server:
        solved = subprocess.run(
            ["sh", str(task.path / "solution" / "solve.sh")],
            capture_output=True,
            text=True,
            env={**env, "WSB_BASE_URL": server.base_url},
            timeout=120,
        )
    assert solved.returncode == 0, solved.stderr
    reward = tmp_path / "reward.txt"
    graded = subprocess.run(
        ["sh", str(task.path / "tests" / "test.sh")],
        capture_output=True,
        text=True,
        env={**env, "WSB_WORLD_DIR": str(tmp_path), "WSB_REWARD_FILE": str(reward)},
        timeout=120,
    )
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


def _set_task_entry(suite: Path, task: str, extra: str) -> None:
    dataset = suite / "dataset.toml"
    dataset.write_text(dataset.read_text().replace(f'name = "wsb/{task}"\n', f'name = "wsb/{task}"\n{extra}\n'))


@pytest.mark.parametrize("where", ["relative", "absolute"])
def test_a_task_path_is_refused_because_harbor_ignores_it(suite_copy, tmp_path, opened, where):
    outside = tmp_path / "outside" / "wb-workplace-workplace-004-open-points-038e07-s1"
    shutil.copytree(
        SAMPLE / "wb-workplace-workplace-004-open-points-038e07-s1", outside
    )  # a complete task: the old code loaded it from there
    path = "../outside/wb-workplace-workplace-004-open-points-038e07-s1" if where == "relative" else str(outside)
    _set_task_entry(suite_copy, "wb-workplace-workplace-004-open-points-038e07-s1", f'path = "{path}"')
    with opened() as files, pytest.raises(SuiteError) as info:
        load_dataset(suite_copy / "dataset.toml")
    assert (info.value.path, info.value.item, info.value.field) == (
        str(suite_copy / "dataset.toml"),
        "wb-workplace-workplace-004-open-points-038e07-s1",
        f"tasks.{STAFFING_S1}.path",
    )
    assert "Harbor ignores 'path'" in str(info.value)
    assert not [f for f in files if f.startswith(str(tmp_path / "outside"))]


@pytest.mark.parametrize("name", ["webbench-sample", "wsb/../outside", "wsb/Staffing-s1", "/etc/passwd"])
def test_a_task_name_is_harbor_s_org_name_and_one_safe_folder(suite_copy, opened, name):
    dataset = suite_copy / "dataset.toml"
    dataset.write_text(
        dataset.read_text().replace('name = "wsb/wb-workplace-workplace-004-open-points-038e07-s1"', f'name = "{name}"')
    )
    with opened() as files, pytest.raises(SuiteError) as info:
        load_dataset(dataset)
    assert info.value.field == f"tasks.{STAFFING_S1}.name" and "does not match" in str(info.value)
    assert not [f for f in files if f.endswith("task.toml")]


def test_a_folder_holding_another_task_is_refused(suite_copy):
    toml = suite_copy / "wb-workplace-workplace-004-open-points-038e07-s1" / "task.toml"
    toml.write_text(
        toml.read_text().replace(
            'name = "wsb/wb-workplace-workplace-004-open-points-038e07-s1"',
            'name = "other/wb-workplace-workplace-004-open-points-038e07-s1"',
        )
    )
    with pytest.raises(
        SuiteError,
        match="the folder 'wb-workplace-workplace-004-open-points-038e07-s1' holds task 'other/wb-workplace-workplace-004-open-points-038e07-s1', the dataset "
        "lists 'wsb/wb-workplace-workplace-004-open-points-038e07-s1'",
    ) as info:
        load_dataset(suite_copy / "dataset.toml")
    assert (info.value.path, info.value.field) == (str(toml), "task.name")


@pytest.mark.parametrize(
    "contract",
    [
        "../../../../etc/passwd",
        "/etc/passwd",
        "../wb-workplace-workplace-004-open-points-038e07-s2/tests/contract.json",
    ],
)
def test_a_contract_outside_the_task_folder_is_refused_naming_task_toml_item_and_field(suite_copy, opened, contract):
    # another task's contract is inside the suite, but not inside this task's digest
    task = suite_copy / "wb-workplace-workplace-004-open-points-038e07-s1"
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace('contract = "tests/contract.json"', f'contract = "{contract}"'))
    with opened() as files, pytest.raises(SuiteError) as info:
        load_task(task)
    assert (info.value.path, info.value.item, info.value.field) == (
        str(toml),
        "wb-workplace-workplace-004-open-points-038e07-s1",
        "metadata.contract",
    )
    assert "points outside" in str(info.value)
    assert "/etc/passwd" not in files and not [
        f for f in files if "wb-workplace-workplace-004-open-points-038e07-s2" in f
    ]


def test_a_symlink_to_a_file_outside_the_task_folder_is_refused(suite_copy, tmp_path, opened):
    secret = tmp_path / "secret.jsonl"
    secret.write_text('{"action": "navigate", "url": "/"}\n')
    link = suite_copy / "wb-workplace-workplace-004-open-points-038e07-s1" / "tests" / "controls" / "noop.jsonl"
    link.unlink()
    link.symlink_to(secret)
    with opened() as files, pytest.raises(SuiteError, match="points outside") as info:
        load_task(suite_copy / "wb-workplace-workplace-004-open-points-038e07-s1")
    assert info.value.item == "wb-workplace-workplace-004-open-points-038e07-s1" and str(secret) not in files


@pytest.mark.parametrize("which", ["dataset.toml", "wb-workplace-workplace-005-escalation-945861-s2/task.toml"])
@pytest.mark.parametrize(
    "damage, message",
    [
        (
            lambda text: text.replace("\n", "\nx = " + "[" * 3000 + "]" * 3000 + "\n", 1),
            "invalid TOML: nested too deeply",
        ),
        (lambda text: text.replace("\n", "\nx = " + "9" * 5000 + "\n", 1), "invalid TOML: Exceeds the limit"),
        (lambda text: text.replace("\n", "\nx = [\n", 1), r"invalid TOML: .*\(at line \d+, column \d+\)"),
    ],
)
def test_a_damaged_toml_file_is_one_error_naming_it(suite_copy, which, damage, message):
    path = suite_copy / which
    path.write_text(damage(path.read_text()))
    with pytest.raises(SuiteError, match=message) as info:
        load_dataset(suite_copy / "dataset.toml")
    assert info.value.path == str(path)
    if "at line" in str(info.value):  # tomllib's position becomes the error's line
        assert f"(at line {info.value.line}, column" in str(info.value)


def test_invalid_utf8_and_a_path_too_long_are_one_error_naming_file_line_item_and_field(suite_copy):
    toml = suite_copy / "wb-workplace-workplace-004-open-points-038e07-s1" / "task.toml"
    original = toml.read_bytes()
    toml.write_bytes(original.replace(b"\n", b"\n# caf\xe9\n", 1))
    with pytest.raises(SuiteError, match=r"task.toml:2: not valid UTF-8"):
        load_dataset(suite_copy / "dataset.toml")
    toml.write_bytes(original)
    dataset = suite_copy / "dataset.toml"
    dataset.write_text(
        dataset.read_text().replace(
            'name = "wsb/wb-workplace-workplace-004-open-points-038e07-s1"', f'name = "wsb/{"x" * 5000}"'
        )
    )
    with pytest.raises(
        SuiteError, match=rf"field 'tasks.{STAFFING_S1}.name': bad path 'x+': File name too long"
    ) as info:
        load_dataset(dataset)
    assert info.value.item == "x" * 5000


# ------------------------------------------------------------------ Harbor's own code on the bundled suite


def _python312() -> str | None:
    """An interpreter that really is 3.12 (a pyenv shim on PATH may point at another version)."""
    found = []
    for root in (Path.home() / ".pyenv" / "versions", Path("/root/.pyenv/versions")):
        found += sorted(str(p) for p in root.glob("3.12*/bin/python3.12"))
    found.append(shutil.which("python3.12"))
    for python in filter(None, found):
        try:
            version = subprocess.run(
                [python, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True, text=True, timeout=30
            ).stdout.strip()
        except OSError:
            continue
        if version == "(3, 12)":
            return python
    return None


@pytest.fixture(scope="session")
def harbor_python() -> Path:
    """A Python 3.12 venv with harbor==0.25.0, made once and kept in the temp folder between runs
    (WSB_HARBOR_VENV chooses another place). uv (the test extra's) makes it: about 2 CPU s where pip took 96
    for Harbor's 100-odd packages, compiling every module (benchmarks/README.md); the checks below compile
    what they import, once."""
    from uv import find_uv_bin

    base = _python312()
    if base is None:
        pytest.skip("Harbor 0.25.0 needs Python 3.12 and none was found (python3.12 on PATH or under ~/.pyenv)")
    venv = Path(os.environ.get("WSB_HARBOR_VENV") or Path(tempfile.gettempdir()) / "wsb-harbor-0.25.0-py312")
    python, marker = venv / "bin" / "python", venv / "installed.ok"
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{venv}.lock", "w") as lock:  # xdist workers: one installs, the others wait
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (marker.is_file() and marker.read_text() == HARBOR and python.exists()):
            shutil.rmtree(venv, ignore_errors=True)
            uv = find_uv_bin()
            for command in (
                [uv, "venv", "--quiet", "--python", base, str(venv)],
                [uv, "pip", "install", "--quiet", "--python", str(python), HARBOR],
            ):
                done = subprocess.run(command, capture_output=True, text=True, timeout=1200)
                if done.returncode != 0:
                    why = (done.stderr.strip().splitlines() or [f"{command[1]} failed"])[-1]
                    if os.environ.get("CI") == "true":
                        pytest.fail(f"could not install {HARBOR} into {venv}: {why}")
                    pytest.skip(f"could not install {HARBOR} (no network to the package index?): {why}")
            marker.write_text(HARBOR)
    return python


def _harbor_check(python: Path, dataset: Path) -> dict:
    """harbor_check.py's report on a dataset folder, run by Harbor's venv. It writes its compiled modules there
    (tests/conftest.py lets the tests' children write bytecode), so the second check starts 2-3 s sooner."""
    checked = subprocess.run(
        [str(python), str(Path(__file__).with_name("harbor_check.py")), str(dataset)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert checked.returncode == 0, checked.stderr
    return json.loads(checked.stdout)


def _litter(suite: Path) -> None:
    """Caches, compiled files, editor and OS litter in two packages, and a .gitignore in a third (it replaces
    Harbor's defaults there: its own patterns, a re-include, and litter it does not name)."""
    tasks = sorted(p for p in suite.iterdir() if (p / "task.toml").is_file())
    for task in tasks[:2]:
        (task / "tests" / "__pycache__").mkdir()
        (task / "tests" / "__pycache__" / "check.cpython-312.pyc").write_bytes(b"\x00compiled")
        (task / "solution" / "helper.pyc").write_bytes(b"\x00")
        (task / "environment" / ".DS_Store").write_bytes(b"\x00\x01")
        (task / "solution" / ".solve.sh.swp").write_text("swap")
        (task / "solution" / "solve.sh.swo").write_text("swap")
        (task / "instruction.md~").write_text("backup")  # not a publishable name either way
        (task / "steps" / "alt-oracle.jsonl~").write_text("backup")
    ignoring = tasks[2]
    (ignoring / ".gitignore").write_text("# local runs\n*.log\n!keep.log\n/solution/build/\n")
    (ignoring / "tests" / "run.log").write_text("x")
    (ignoring / "tests" / "keep.log").write_text("kept")
    (ignoring / "solution" / "build").mkdir()
    (ignoring / "solution" / "build" / "out.txt").write_text("x")
    (ignoring / "environment" / ".DS_Store").write_bytes(b"\x00")  # published: the .gitignore does not name it


def test_the_digest_is_harbor_s_content_hash_over_the_publishable_files_only(suite_copy):
    before = {t.name: t.digest for t in load_dataset(suite_copy / "dataset.toml")}
    _litter(suite_copy)
    tasks = sorted(p for p in suite_copy.iterdir() if (p / "task.toml").is_file())
    for task in tasks[:2]:
        assert task_digest(task) == before[task.name]  # the litter is left out
        assert not [f for f in publishable(task) if f.suffix in (".pyc", ".swp", ".swo") or f.name == ".DS_Store"]
    ignoring = tasks[2]
    names = {f.relative_to(ignoring).as_posix() for f in publishable(ignoring)}
    assert {"tests/keep.log", "environment/.DS_Store"} <= names
    assert not {"tests/run.log", "solution/build/out.txt", ".gitignore"} & names
    assert task_digest(ignoring) != before[ignoring.name]
    (tasks[0] / "trajectory.json").write_text("[]")  # a publishable top-level file Harbor includes
    assert (
        "trajectory.json" in {f.name for f in publishable(tasks[0])} and task_digest(tasks[0]) != before[tasks[0].name]
    )


@pytest.mark.parametrize(
    "pattern, path, ignored_",
    [
        ("*.log", "tests/a/b.log", True),
        ("/tests/*.log", "tests/b.log", True),
        ("/tests/*.log", "x/tests/b.log", False),
        ("build/", "solution/build/x", True),
        ("build/", "solution/build", False),
        ("**/cache", "a/b/cache/x", True),
        ("a/**/z", "a/b/c/z", True),
        ("a/**/z", "a/z", True),
        ("file?.txt", "tests/file1.txt", True),
        ("file[0-3].txt", "tests/file4.txt", False),
        ("file[!0-3].txt", "tests/file4.txt", True),
        ("\\#x", "#x", True),
    ],
)
def test_gitignore_patterns_match_as_harbor_s_packager_reads_them(pattern, path, ignored_):
    from pytest_websearchbench.webbench.harbor import ignore_rules, ignored

    assert ignored(ignore_rules([pattern]), path) is ignored_
    assert ignored(ignore_rules([pattern, "!" + path.rsplit("/", 1)[-1]]), path) is False or path.endswith("/")


def test_harbor_loads_every_package_accepts_the_manifest_digests_and_lint(harbor_python):
    report = _harbor_check(harbor_python, SAMPLE)
    packages = sorted(t.package for t in sample_tasks())
    assert report["load_errors"] == [] and sorted(report["loaded"]) == packages
    assert report["manifest_errors"] == []
    assert sorted(report["digests"]) == packages
    assert all(recorded == harbor for recorded, harbor in report["digests"].values()), report["digests"]
    assert report["lint"] == {"returncode": 0, "output": ""}


def test_harbor_s_packager_leaves_out_what_ours_leaves_out(harbor_python, suite_copy):
    _litter(suite_copy)
    dataset = suite_copy / "dataset.toml"
    for task in _task_names(suite_copy):
        entry = re.compile(rf'(name = "wsb/{task}"\ndigest = )"[^"]+"')
        digest = task_digest(suite_copy / task)
        dataset.write_text(entry.sub(lambda m, digest=digest: f'{m.group(1)}"{digest}"', dataset.read_text()))
    report = _harbor_check(harbor_python, suite_copy)
    assert report["load_errors"] == [] and report["manifest_errors"] == []
    assert all(recorded == harbor for recorded, harbor in report["digests"].values()), report["digests"]


def _task_names(suite: Path) -> list[str]:
    return [t["name"].split("/", 1)[1] for t in tomllib.loads((suite / "dataset.toml").read_text())["tasks"]]
