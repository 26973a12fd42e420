"""An agent must not be able to forge its score (issue 24.5). The verifier trusts only what the world's
server saw: the traces it kept in its own process (the HMAC-chained files are checked against them) and
the rows its commits left; a change made behind its back fails ``containment`` with the reason. Program
agents run in bubblewrap where it runs, where neither the world's files, the task's contract and routes,
nor pytest's /proc are in sight; the summary says when one ran unsandboxed."""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
import textwrap
from pathlib import Path

import httpx
import pytest
from wb_support import SAMPLE, live_world, sample_tasks

from conftest import require_sandbox
from pytest_websearchbench.webbench.agents.episode import run_episode
from pytest_websearchbench.webbench.grading.verifier import verify
from pytest_websearchbench.webbench.webapps.trace import BEFORE_DB, CALL_TRACE, WEB_TRACE, WORLD_DB

FAST = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")
OUTSIDE = "changed outside the world's server"


def _task():
    """The feasible task with the shortest oracle route (a Decision to forge, few steps to replay)."""
    return min((t for t in sample_tasks() if t.feasible), key=lambda t: t.reference_steps)


def _containment(verdict) -> str:
    gate = next(g for g in verdict.gates if g.name == "containment")
    assert gate.value == 0.0
    return gate.detail


@pytest.fixture(scope="module")
def genuine(tmp_path_factory):
    """A world the oracle finished honestly: its world.db, world_before.db and trace files."""
    folder = tmp_path_factory.mktemp("genuine")
    episode = run_episode(_task(), "oracle", keep=folder)
    assert verify(_task().contract, episode.evidence).webscore == 100.0
    return folder


def _forge(genuine, world) -> None:
    """What the forging agent does: the finished world's rows (the expected ones and the Decision)
    written straight into world.db, its trace lines appended to the trace files."""
    shutil.copyfile(genuine / WORLD_DB, world / WORLD_DB)
    for name in (WEB_TRACE, CALL_TRACE):
        with open(world / name, "a", encoding="utf-8") as trace:
            trace.write((genuine / name).read_text("utf-8"))


def test_rows_and_trace_lines_written_behind_the_server_score_0_with_the_reason(genuine):
    task = _task()
    episode = run_episode(task, "forger", work=lambda session, base_url, world: _forge(genuine, world))
    verdict = verify(task.contract, episode.evidence)
    assert episode.steps == 0 and verdict.webscore == 0.0 and not verdict.passed
    detail = _containment(verdict)
    assert f"row decisions DEC-0001 {OUTSIDE}" in detail
    assert "web_trace.jsonl line 1 was not written by the world's server (its HMAC chain breaks there)" in detail
    assert "call_trace.jsonl line 1 was not written by the world's server" in detail
    # the verdict was made from what the server saw: no request, no commit
    assert episode.evidence["web_trace"] == [] and episode.evidence["call_trace"] == []


def test_a_row_the_server_committed_and_the_agent_then_edited_fails_containment():
    task = _task()

    def honest_then_edit(session, base_url, world):
        for action in task.routes["oracle"]:
            session.act(action)
        con = sqlite3.connect(world / WORLD_DB)
        con.execute("UPDATE decisions SET abstain_reason = 'edited' WHERE id = 'DEC-0001'")
        con.commit()
        con.close()

    episode = run_episode(task, "editor", work=honest_then_edit)
    verdict = verify(task.contract, episode.evidence)
    assert verdict.webscore == 0.0 and _containment(verdict) == f"row decisions DEC-0001 {OUTSIDE}"


def test_an_honest_episode_leaves_nothing_outside_the_server():
    task = _task()

    def honest(session, base_url, world):
        for action in task.routes["oracle"]:
            session.act(action)

    episode = run_episode(task, "honest", work=honest)
    assert episode.evidence["outside"] == [] and verify(task.contract, episode.evidence).webscore == 100.0


@pytest.mark.parametrize(
    "damage, reason",
    [
        (
            "append a copy of a line",
            "web_trace.jsonl line 3 was not written by the world's server (its HMAC chain breaks there)",
        ),
        ("edit a line", "web_trace.jsonl line 1 was not written by the world's server (its HMAC chain breaks there)"),
        ("drop the last line", "web_trace.jsonl has 1 lines where the world's server wrote 2"),
        ("a line without mac", "web_trace.jsonl line 3 was not written by the world's server (no valid mac)"),
        ("no line end", "web_trace.jsonl line 3 was not written by the world's server (no line end)"),
        ("edit world_before.db", "world_before.db was changed outside the world's server"),
    ],
)
def test_the_server_names_what_changed_in_its_files(damage, reason):
    with live_world() as (server, folder):
        httpx.get(server.base_url + "/")
        httpx.get(server.base_url + "/nowhere")
        assert server.trace.tampering() == []
        path = folder / WEB_TRACE
        lines = path.read_text("utf-8").splitlines(keepends=True)
        if damage == "append a copy of a line":
            path.write_text("".join(lines + lines[:1]), "utf-8")
        elif damage == "edit a line":
            path.write_text(lines[0].replace('"status": 200', '"status": 201') + lines[1], "utf-8")
        elif damage == "drop the last line":
            path.write_text(lines[0], "utf-8")
        elif damage == "a line without mac":
            path.write_text("".join(lines) + json.dumps({"seq": 3, "path": "/x"}) + "\n", "utf-8")
        elif damage == "no line end":
            path.write_text("".join(lines) + "{", "utf-8")
        else:
            con = sqlite3.connect(folder / BEFORE_DB)
            con.execute("DELETE FROM decisions")
            con.execute("CREATE TABLE forged (x)")
            con.commit()
            con.close()
        assert server.trace.tampering() == [reason]


def test_the_harbor_verifier_reading_files_names_rows_no_commit_explains(genuine, tmp_path):
    """Another process (a Harbor container's verifier) has only the files: a changed row that no commit
    of the call trace names still fails containment."""
    from pytest_websearchbench.webbench.grading.verifier import load_evidence

    task = _task()
    world = tmp_path / "world"
    shutil.copytree(genuine, world)
    (world / CALL_TRACE).write_text("", "utf-8")
    verdict = verify(task.contract, load_evidence(world, task.contract))
    assert f"row decisions DEC-0001 {OUTSIDE}" in _containment(verdict)


# ------------------------------------------------------------------------------ program agents


def _program(folder, name: str, body: str):
    path = folder / name
    path.write_text(textwrap.dedent(body))
    path.chmod(0o755)
    return path


def _forger(pytester, genuine):
    """A program that never acts through the browser: it finds the world's folder by pytest's pid and
    forges the finished world into it."""
    pytester.path.joinpath("genuine").mkdir()
    for name in (WORLD_DB, WEB_TRACE, CALL_TRACE):
        shutil.copyfile(genuine / name, pytester.path / "genuine" / name)
    return _program(
        pytester.path,
        "forge.py",
        f"""\
        #!{sys.executable}
        import glob, os, shutil, sys, tempfile
        here = os.path.dirname(os.path.abspath(__file__))
        worlds = glob.glob(os.path.join(tempfile.gettempdir(), f"wsb-world-{{os.getppid()}}-*"))
        if not worlds:
            sys.exit("no world folder in sight")
        shutil.copyfile(os.path.join(here, "genuine", "world.db"), os.path.join(worlds[0], "world.db"))
        for name in ("web_trace.jsonl", "call_trace.jsonl"):
            with open(os.path.join(worlds[0], name), "a") as trace:
                trace.write(open(os.path.join(here, "genuine", name)).read())
        print("forged", worlds[0])
    """,
    )


def _items(path) -> dict:
    return {i["case_id"]: i for i in json.loads(path.read_text())["items"]}


def test_an_unsandboxed_program_that_forges_world_db_and_the_traces_without_a_step_is_an_error(pytester, genuine):
    task = _task()
    _forger(pytester, genuine)
    results = pytester.path / "r.json"
    result = pytester.runpytest(
        *FAST,
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        "cmd:./forge.py",
        "--wsb-sandbox=off",
        "-k",
        f"{task.name}[",
        f"--wsb-json={results}",
    )
    # it took no step: an error that says so and how it ran (what it forged, containment catches: see above)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*the agent never reached the world (0 steps): the program exited 0 "
            "(none: --wsb-sandbox=off); its last words: forged *"
        ]
    )
    item = _items(results)[task.name]
    assert item["outcome"] == "error" and item["error_kind"] == "agent_never_acted"


def test_a_sandboxed_program_does_not_see_the_world_folder(pytester, genuine):
    require_sandbox("program agents cannot be sandboxed")
    task = _task()
    _forger(pytester, genuine)
    results = pytester.path / "r.json"
    result = pytester.runpytest(
        *FAST,
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        "cmd:./forge.py",
        "-k",
        f"{task.name}[",
        f"--wsb-json={results}",
    )
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*the agent never reached the world (0 steps): the program exited 1 (bwrap); "
            "its last words: no world folder in sight*"
        ]
    )
    assert _items(results)[task.name]["error_kind"] == "agent_never_acted"


def _reader(pytester):
    """A program that reads the task's oracle route (beside its sealed contract) through pytest's working
    folder, /proc/<pytest>/cwd, or its own folder, and replays it through the browser."""
    shutil.copytree(SAMPLE, pytester.path / "wb")
    return _program(
        pytester.path,
        "peek.sh",
        """\
        #!/bin/sh
        for root in "/proc/$PPID/cwd/wb" "$(dirname "$0")/wb"; do
            for task in "$root"/*/; do
                if [ -r "$task/tests/contract.json" ] && cmp -s "$task/instruction.md" "$WSB_BRIEF_FILE"; then
                    echo "read $task"
                    exec browser < "$task/solution/actions.jsonl" > /dev/null
                fi
            done
        done
        echo "no contract in sight" >&2
        exit 3
    """,
    )


def test_a_program_that_reads_the_contract_through_proc_finds_nothing_in_the_sandbox(pytester):
    require_sandbox("program agents cannot be sandboxed")
    task = _task()
    _reader(pytester)
    results = pytester.path / "r.json"
    args = (*FAST, "--suite", "wb", "--wsb-agent", "cmd:./peek.sh", "-k", f"{task.name}[", f"--wsb-json={results}")
    # unsandboxed, nothing stops it from reading what its user can: the summary says it ran so
    unsandboxed = pytester.runpytest(*args, "--wsb-sandbox=off")
    unsandboxed.assert_outcomes(passed=1)
    unsandboxed.stdout.fnmatch_lines(["*sandbox*1 UNSANDBOXED (--wsb-sandbox=off)*"])
    assert _items(results)[task.name]["raw"]["extra"]["details"]["stdout_tail"].startswith("read ")
    sandboxed = pytester.runpytest(*args)
    sandboxed.assert_outcomes(errors=1)
    sandboxed.stdout.fnmatch_lines(
        [
            "*the agent never reached the world (0 steps): the program exited 3 (bwrap); "
            "its last words: no contract in sight*"
        ]
    )


def test_require_is_a_usage_error_where_the_sandbox_cannot_run(pytester, monkeypatch):
    from pytest_websearchbench.webbench.agents.sandbox import unavailable

    monkeypatch.setenv("PATH", str(pytester.path / "nothing-here"))
    unavailable.cache_clear()
    try:
        result = pytester.runpytest(
            *FAST, "--suite", "webbench-sample", "--wsb-agent", "cmd:/bin/true", "--wsb-sandbox", "require"
        )
    finally:
        monkeypatch.undo()
        unavailable.cache_clear()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--wsb-sandbox require: bwrap is not installed (apt-get install bubblewrap)*"])


def test_a_sandboxed_program_does_not_read_the_repositorys_git_objects(pytester):
    import subprocess

    require_sandbox("program agents cannot be sandboxed")
    task = _task()
    shutil.copytree(SAMPLE, pytester.path / "wb")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=pytester.path, check=True)
    subprocess.run([*git, "add", "wb"], cwd=pytester.path, check=True)
    subprocess.run([*git, "commit", "-qm", "suite"], cwd=pytester.path, check=True)
    # the agent kept at the repository's root, as the docs lay it out: the suite's files are covered, its
    # history is not unless the sandbox covers .git too
    _program(
        pytester.path,
        "history.sh",
        f"""\
        #!/bin/sh
        cd "$(dirname "$0")"
        if git show "HEAD:wb/{task.path.name}/solution/actions.jsonl" > /tmp/route 2>/dev/null; then
            echo "read the history"
            exec browser < /tmp/route > /dev/null
        fi
        echo "no history in sight" >&2
        exit 4
    """,
    )
    args = (*FAST, "--suite", "wb", "--wsb-agent", "cmd:./history.sh", "-k", f"{task.name}[")
    pytester.runpytest(*args, "--wsb-sandbox=off").assert_outcomes(passed=1)  # what the sandbox must stop
    sandboxed = pytester.runpytest(*args)
    sandboxed.assert_outcomes(errors=1)
    sandboxed.stdout.fnmatch_lines(["*exited 4 (bwrap); its last words: no history in sight*"])


def test_a_script_named_as_an_argument_and_a_linked_interpreter_reach_the_world_in_the_sandbox(pytester, tmp_path):
    import subprocess

    require_sandbox("program agents cannot be sandboxed")
    task = _task()
    # pytest started from an interpreter reached through a symbolic link (a linked virtual environment): the
    # browser command runs that path, which the sandbox must show as given. The environment itself is linked
    # (its pyvenv.cfg beside its bin/), so the linked interpreter has this run's packages; the base Python,
    # where the link resolves, may have none of them
    link = tmp_path / "venv-link"
    link.symlink_to(Path(sys.prefix))
    python = link / Path(sys.executable).relative_to(sys.prefix)
    pytester.path.joinpath("agent.py").write_text(
        textwrap.dedent("""\
        import subprocess, sys
        done = subprocess.run(["browser", "navigate", "url=/"], capture_output=True, text=True)
        print("browser exited", done.returncode, done.stderr[-300:], file=sys.stderr)
    """)
    )
    results = pytester.path / "r.json"
    ran = subprocess.run(
        [
            str(python),
            "-m",
            "pytest",
            *FAST,
            "--suite",
            "webbench-sample",
            "--wsb-agent",
            "cmd:python3 agent.py",
            "-k",
            f"{task.name}[",
            f"--wsb-json={results}",
        ],
        cwd=pytester.path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "never reached the world" not in ran.stdout, ran.stdout[-3000:]
    item = _items(results)[task.name]
    assert item["outcome"] == "failed" and item["metrics"]["steps"] == 1.0  # it acted: one step, then stopped
    assert item["raw"]["extra"]["details"]["stderr_tail"].startswith("browser exited 0")


def test_an_episode_of_no_step_cannot_pass_whatever_the_world_holds():
    from pytest_websearchbench.core.family import Case, RawResults
    from pytest_websearchbench.webbench.family import WebBenchFamily

    task = _task()
    extra = run_episode(task, "oracle").to_dict()
    family, case = WebBenchFamily(), Case(task.name, task)
    assert family.score(None, case, RawResults(extra=extra), 5).passed  # the oracle's, as it went
    forged = family.score(None, case, RawResults(extra={**extra, "steps": 0}), 5)  # the same world, no step
    assert not forged.passed and forged.metrics["webscore"] == 0.0 and "0 steps" in forged.message
