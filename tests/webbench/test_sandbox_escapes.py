"""Agents of our own that try each way out of the program agents' sandbox (issue 46): rebuilding the task's
route with the plugin's own generator, reaching a loopback port that is not their world or an outside
address, reading pytest's environment, and leaving a symlink or a FIFO where the host reads their output.
Each succeeds unsandboxed (what the sandbox must stop) and fails in it, while the world stays reachable."""

from __future__ import annotations

import json
import os
import socket
import sys
import textwrap
import threading

import pytest
from wb_support import sample_tasks

from conftest import require_sandbox

FAST = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")


def _task():
    return min((t for t in sample_tasks() if t.feasible), key=lambda t: t.reference_steps)


def _items(path) -> dict:
    return {i["case_id"]: i for i in json.loads(path.read_text())["items"]}


def _program(folder, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
    path.chmod(0o755)


def _run(pytester, program: str, *args: str):
    """The program (a script whose first line names this test run's interpreter: with its packages, the
    plugin's among them) as the agent of the quickest feasible task."""
    task = _task()
    results = pytester.path / "r.json"
    result = pytester.runpytest(
        *FAST,
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        f"cmd:./{program}",
        "-k",
        f"{task.name}[",
        f"--wsb-json={results}",
        *args,
    )
    return result, _items(results)[task.name]


def _program_record(item) -> dict:
    return item["raw"]["extra"]["details"]


def test_an_agent_that_rebuilds_its_task_with_the_plugins_generator_cannot_import_it_in_the_sandbox(pytester):
    require_sandbox("program agents cannot be sandboxed")
    # the attack the issue measured (28/28 passes): the installed plugin's own generator rebuilds every
    # published task; the one whose brief matches gives its oracle route, replayed through the browser
    _program(
        pytester.path,
        "rebuild.py",
        """\
        import json, os, subprocess, sys
        try:
            from pytest_websearchbench.webbench.tasks.builder import build_task
            from pytest_websearchbench.webbench.tasks.generate import planned
        except ImportError as exc:
            sys.exit(f"no generator in sight: {exc.name}")
        brief = open(os.environ["WSB_BRIEF_FILE"], encoding="utf-8").read()
        for _, template, seed, outcome in planned():
            task = build_task(template, seed, outcome)
            if task.instruction == brief:
                route = "".join(json.dumps(a) + "\\n" for a in task.routes["oracle"])
                subprocess.run(["browser"], input=route, text=True, stdout=subprocess.DEVNULL)
                print("rebuilt", task.name)
                sys.exit(0)
        sys.exit("no task matched")
        """,
    )
    forged, item = _run(pytester, "rebuild.py", "--wsb-sandbox=off")
    forged.assert_outcomes(passed=1)  # unsandboxed it works: what the sandbox must stop
    assert _program_record(item)["stdout_tail"].startswith("rebuilt ")
    sandboxed, item = _run(pytester, "rebuild.py")
    sandboxed.assert_outcomes(errors=1)
    sandboxed.stdout.fnmatch_lines(["*the program exited 1 (bwrap); its last words: no generator in sight*"])


@pytest.fixture
def listener():
    """A loopback port of the host's that is not the world: what an agent must not reach."""
    server = socket.create_server(("127.0.0.1", 0))
    reached: list[bytes] = []

    def accept() -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            reached.append(client.recv(100))
            client.close()

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1], reached
    server.close()


def test_the_sandbox_shows_no_other_port_no_outside_address_no_plugin_file_and_no_key(pytester, listener, monkeypatch):
    require_sandbox("program agents cannot be sandboxed")
    port, reached = listener
    monkeypatch.setenv("WSB_PROBE_PORT", str(port))
    monkeypatch.setenv("SERPER_API_KEY", "probe-key-5a1c9e")  # the run's key: never in the agent's sight
    _program(
        pytester.path,
        "probe.py",
        """\
        import glob, os, socket, subprocess, sys
        found = []
        try:
            socket.create_connection(("127.0.0.1", int(os.environ["WSB_PROBE_PORT"])), timeout=3).sendall(b"hi")
            found.append("another loopback port")
        except OSError:
            pass
        try:
            socket.create_connection(("192.0.2.1", 80), timeout=2)  # TEST-NET-1: unreachable even from the host
            found.append("an outside address")
        except OSError as exc:
            print("outside:", exc.strerror or exc, file=sys.stderr)
        for pattern in ("/proc/*/environ",):
            for path in glob.glob(pattern):
                try:
                    if b"probe-key-5a1c9e" in open(path, "rb").read():
                        found.append("the run's key in " + path)
                except OSError:
                    pass
        def holds(path):  # a covered entry may keep its name, never what it held
            return bool(os.listdir(path)) if os.path.isdir(path) else os.path.getsize(path) > 0

        roots = {sys.prefix, sys.base_prefix, os.path.dirname(os.path.abspath(__file__)), "/usr", "/etc"}
        for root in roots:
            for here, dirs, names in os.walk(root):
                hits = [n for n in dirs + names if "websearchbench" in n and holds(os.path.join(here, n))]
                if hits:
                    found.append(os.path.join(here, hits[0]))
                    break
        done = subprocess.run(["browser", "navigate", "url=/"], capture_output=True)
        print("world", done.returncode, "; found:", ", ".join(found) or "nothing")
        """,
    )
    unsandboxed, item = _run(pytester, "probe.py", "--wsb-sandbox=off")
    shown = _program_record(item)["stdout_tail"]
    assert "another loopback port" in shown and "websearchbench" in shown, shown
    reached.clear()
    sandboxed, item = _run(pytester, "probe.py")
    record = _program_record(item)
    assert record["sandbox"] == "bwrap" and record["stdout_tail"].strip() == "world 0 ; found: nothing", record
    assert item["metrics"]["steps"] == 1.0  # the world and its browser session stay reachable
    assert reached == []  # the host's listener never heard from it
    assert "probe-key-5a1c9e" not in (pytester.path / "r.json").read_text()


def test_with_agent_net_host_the_network_is_shared_and_said_in_red(pytester, listener, monkeypatch):
    require_sandbox("program agents cannot be sandboxed")
    port, reached = listener
    monkeypatch.setenv("WSB_PROBE_PORT", str(port))
    _program(
        pytester.path,
        "knock.py",
        """\
        import os, socket, subprocess
        socket.create_connection(("127.0.0.1", int(os.environ["WSB_PROBE_PORT"])), timeout=3).sendall(b"knock")
        subprocess.run(["browser", "navigate", "url=/"], capture_output=True)
        """,
    )
    result, item = _run(pytester, "knock.py", "--wsb-agent-net=host", "--wsb-html=r.html")
    assert _program_record(item)["sandbox"] == "bwrap; UNSANDBOXED NETWORK (--wsb-agent-net=host)"
    result.stdout.fnmatch_lines(["*sandbox*1 in bwrap, UNSANDBOXED NETWORK (--wsb-agent-net=host)*"])
    assert reached == [b"knock"]
    report = (pytester.path / "r.html").read_text()
    assert '<td class="bad">1 in bwrap, UNSANDBOXED NETWORK (--wsb-agent-net=host)</td>' in report


def test_the_host_never_follows_what_the_agent_leaves_where_its_output_was(pytester, tmp_path):
    require_sandbox("program agents cannot be sandboxed")
    secret = tmp_path / "host-secret.txt"
    secret.write_text("host secret 7d3e")
    # where the host read the program's output back after it exited: a symlink to a host file and a FIFO (which
    # blocked pytest forever); the program's own printing still comes back through its descriptors
    _program(
        pytester.path,
        "trap.py",
        f"""\
        import os, subprocess
        os.makedirs(".wsb", exist_ok=True)
        for name in ("stdout.txt", "stderr.txt"):
            try:
                os.remove(os.path.join(".wsb", name))
            except FileNotFoundError:
                pass
        os.symlink({str(secret)!r}, ".wsb/stdout.txt")
        os.mkfifo(".wsb/stderr.txt")
        subprocess.run(["browser", "navigate", "url=/"], capture_output=True)
        print("my last words")
        """,
    )
    for args in (("--wsb-sandbox=off",), ()):
        result, item = _run(pytester, "trap.py", *args)
        record = _program_record(item)
        assert record["stdout_tail"].strip() == "my last words", record
        assert "host secret" not in (pytester.path / "r.json").read_text()
        assert item["metrics"]["steps"] == 1.0
    assert os.path.exists(secret)
