"""The program agent (``--wsb-agent "cmd:./my_agent.sh"``): any executable, run the way Harbor runs
terminal agents.

The program is started in a fresh working folder holding ``instruction.md`` (the brief), with
``WSB_BRIEF`` (the brief's text), ``WSB_BRIEF_FILE``, ``WSB_WORKSPACE_URL`` (the world's URL),
``WSB_STEP_BUDGET`` and ``browser`` first on its ``PATH``. It acts only through ``browser``
(``agents.browser_cli``), whose every action the plugin carries out on the episode's
:class:`~pytest_websearchbench.webbench.agents.session.Session`: the action after the last allowed
one answers an error. Actions are carried out on the thread that waits for the program (a Playwright
browser serves one thread). When the episode ends (the program exited, or the wall-clock limit came)
whatever it started is killed: its process group, and any process that left the group (``setsid``, a
daemon) but still carries the episode's session address in its environment. Of its output only the
last characters are read.

Where the machine allows it the program runs sandboxed (``agents.sandbox``: bubblewrap), seeing its
working folder, its own folder, the ``browser`` command (a copy of the CLI in the working folder) and,
in a network namespace of its own, the world's and its session's ports (``agents.relay``); the record
says how it ran (``sandbox``), and the run's summary when unsandboxed. Its output goes to files outside
its reach, read back (the last characters only) through the descriptors it was given.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pytest_websearchbench.core.loopback import LoopbackServer, QuietHandler
from pytest_websearchbench.webbench.agents import browser_cli
from pytest_websearchbench.webbench.agents.relay import HostRelay, loopback_port
from pytest_websearchbench.webbench.agents.sandbox import Sandbox, confined
from pytest_websearchbench.webbench.agents.session import TIME, Session

OUTPUT_TAIL = 2000  # characters of the program's stdout/stderr kept in the record
#: what a program may write: its output (stdout and stderr together), and its working folder with its /tmp
OUTPUT_LIMIT, DISK_LIMIT = 64 << 20, 512 << 20
#: seconds between two looks at what it wrote
LIMIT_EVERY = 0.5


@dataclass
class ProgramRun:
    command: str
    exit_code: int | None  # None: killed at the time limit
    seconds: float
    stdout: str
    stderr: str
    sandbox: str  # "bwrap", or "none: <why>"
    limit: str = ""  # the limit it was stopped at ("" when none was reached)

    def to_dict(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "exit_code": self.exit_code,
            "seconds": round(self.seconds, 3),
            "stdout_tail": self.stdout,
            "stderr_tail": self.stderr,
            "sandbox": self.sandbox,
            **({"limit": self.limit} if self.limit else {}),
        }


#: an action is a few hundred bytes; a form's text at most a few KB
MAX_ACTION_BYTES = 1 << 20


class _SessionServer:
    """``POST /<token>`` with one action → its observation; the action is queued for the main thread."""

    def __init__(self) -> None:
        self.token = secrets.token_hex(16)
        self.requests: queue.Queue[tuple[Any, queue.Queue[dict[str, Any]]]] = queue.Queue()  # (action, answer)
        outer = self

        class Handler(QuietHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                if self.path != f"/{outer.token}":
                    return self._reply(404, {"error": "no such session"})
                try:
                    length = self.declared_length(MAX_ACTION_BYTES)
                except ValueError as exc:  # the body cannot be framed: answer, close, never a traceback
                    self.close_connection = True
                    return self._reply(400, {"error": str(exc)})
                try:
                    action = json.loads(self.rfile.read(length))
                except ValueError:  # not JSON, or not UTF-8: the session answers it as a bad action
                    action = None
                answer: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=1)
                outer.requests.put((action, answer))
                self._reply(200, answer.get())

            def _reply(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.http = LoopbackServer(Handler, name="wsb-browser-session")

    @property
    def url(self) -> str:
        return f"{self.http.url}/{self.token}"

    def __enter__(self) -> _SessionServer:
        self.http.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.http.close()


def install_browser_command(folder: Path) -> Path:
    """A ``browser`` executable in ``folder/bin`` that runs a copy of the CLI (standard library only) with
    this interpreter: a sandboxed program needs nothing of the plugin's folders."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    cli = shutil.copyfile(browser_cli.__file__, bin_dir / "browser_cli.py")
    script = bin_dir / "browser"
    script.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(str(cli))} "$@"\n')
    script.chmod(0o755)
    return bin_dir


#: what names a credential in the environment: a program agent needs none (it acts through the browser)
_CREDENTIAL = re.compile(r"(?:^|_)(?:API_?KEY|TOKEN|SECRET|PASSWORD|CSE_ID)$|^(?:WSB_\w+_BASE_URL)$", re.I)


def agent_environment(environ: Mapping[str, str], keep: tuple[str, ...] = ()) -> dict[str, str]:
    """The environment a program agent starts with: the run's, without a provider's or model's key, a hub
    token or an endpoint the plugin was pointed at (a program that does not use them must not hold them),
    but for those ``keep`` names (``--wsb-agent-env``: its own model's key)."""
    return {name: value for name, value in environ.items() if name in keep or not _CREDENTIAL.search(name)}


def run_program(
    session: Session,
    command: list[str],
    brief: str,
    base_url: str,
    workdir: Path,
    time_limit: float,
    sandbox: Sandbox | None = None,
    unsandboxed: str = "",
    keep_env: tuple[str, ...] = (),
) -> ProgramRun:
    """Run the program until it exits or ``time_limit`` seconds pass, serving its browser actions; in
    ``sandbox`` when given, else unsandboxed for the reason ``unsandboxed``."""
    workdir.mkdir(parents=True, exist_ok=True)
    brief_file = workdir / "instruction.md"
    brief_file.write_text(brief, "utf-8")
    bin_dir = install_browser_command(workdir / ".wsb")
    started = time.monotonic()
    session.deadline = started + time_limit
    # its output goes to files outside anything it can reach, read back through this process's own descriptors:
    # the host never opens a path the program could have replaced (a symlink to a host file, a FIFO)
    with (
        _SessionServer() as server,
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        _relay(sandbox, [base_url, server.url]) as relay,
    ):
        env = {
            **agent_environment(os.environ, keep_env),
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "WSB_BRIEF": brief,
            "WSB_BRIEF_FILE": str(brief_file),
            "WSB_WORKSPACE_URL": base_url,
            "WSB_STEP_BUDGET": str(session.budget),
            browser_cli.SESSION_ENV: server.url,
        }
        argv = sandbox.wrap(command, workdir, relay) if sandbox else command
        # unsandboxed, what the program leaves behind is adopted by this process, not by init, so it can be found
        # and killed however it detached (a new session, a double fork, a cleared environment); in the sandbox
        # it cannot leave its pid namespace, which dies with it (and episodes may run at once: run/live/)
        adopting = sandbox is None and _adopt_orphans(True)
        before = set(_children_of(os.getpid())) if adopting else set()
        process = subprocess.Popen(
            argv, cwd=workdir, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True
        )
        exit_code: int | None = None
        limit, looked = "", time.monotonic()
        try:
            while True:
                exit_code = process.poll()
                if exit_code is not None:
                    break
                if time.monotonic() > session.deadline:
                    session.stopped = TIME
                    break
                if time.monotonic() - looked > LIMIT_EVERY:
                    looked = time.monotonic()
                    limit = _over_limit(out, err, workdir)
                    if limit:
                        break
                try:
                    action, answer = server.requests.get(timeout=0.02)
                except queue.Empty:
                    continue
                observation = session.act(action)
                answer.put({"observation": observation.to_dict(), "text": observation.to_text()})
        finally:
            _kill(process, f"{browser_cli.SESSION_ENV}={server.url}".encode())
            if adopting:
                _kill_adopted(before)
                _adopt_orphans(False)
            _drain(server, session)
        stdout, stderr = _tail(out), _tail(err)
    seconds = time.monotonic() - started
    return ProgramRun(shlex.join(command), exit_code, seconds, stdout, stderr, confined(sandbox, unsandboxed), limit)


def _relay(sandbox: Sandbox | None, urls: list[str]) -> contextlib.AbstractContextManager[HostRelay | None]:
    """The world's and the session's ports relayed into the program's network namespace (none unsandboxed, or
    on the host's network)."""
    if sandbox is None or not sandbox.own_network:
        return contextlib.nullcontext()
    return HostRelay([loopback_port(url) for url in urls])


def _over_limit(out: IO[bytes], err: IO[bytes], workdir: Path) -> str:
    """What the program wrote past its limits ("" while it keeps within them)."""
    output = os.fstat(out.fileno()).st_size + os.fstat(err.fileno()).st_size
    if output > OUTPUT_LIMIT:
        return f"wrote {output >> 20} MB of output (the limit is {OUTPUT_LIMIT >> 20} MB)"
    disk = 0
    for root, _, names in os.walk(workdir):
        for name in names:
            try:
                disk += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    if disk > DISK_LIMIT:
        return f"wrote {disk >> 20} MB to its working folder and /tmp (the limit is {DISK_LIMIT >> 20} MB)"
    return ""


def _kill(process: subprocess.Popen[bytes], marker: bytes) -> None:
    """Kill the program (if still running) and everything it started: the process group it leads, then
    each process whose environment holds ``marker``, until a sweep finds none (one may fork meanwhile)."""
    for _ in range(10):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        strays = _carrying(marker)
        for pid in strays:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if not strays:
            break
    process.wait()


def _adopt_orphans(on: bool) -> bool:
    """Make this process the child subreaper (Linux's prctl PR_SET_CHILD_SUBREAPER), or stop being one;
    whether it could."""
    import ctypes

    try:
        status: int = ctypes.CDLL(None, use_errno=True).prctl(36, int(on), 0, 0, 0)
        return status == 0
    except (OSError, AttributeError):  # not Linux
        return False


def _children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            # the fields after the command's parentheses: state, then the parent's pid
            if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def _kill_adopted(before: set[int]) -> None:
    """Kill, with everything below them, the children this process gained during the episode (the program's
    orphans, adopted), and reap them."""
    for _ in range(10):
        adopted = [pid for pid in _children_of(os.getpid()) if pid not in before]
        if not adopted:
            return
        tree, level = [], adopted
        while level:
            tree += level
            level = [child for pid in level for child in _children_of(pid)]
        for pid in tree:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in adopted:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def _carrying(marker: bytes) -> list[int]:
    """The processes whose environment holds the entry ``marker`` (Linux's /proc; elsewhere none)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if marker in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except (OSError, ValueError):  # gone, or another user's
            continue
    return found


def _drain(server: _SessionServer, session: Session) -> None:
    """Answer actions still queued when the program ended (their threads wait for an answer)."""
    while True:
        try:
            _, answer = server.requests.get_nowait()
        except queue.Empty:
            return
        observation = session.browser.observe(error="the episode is over")
        answer.put({"observation": observation.to_dict(), "text": observation.to_text()})


def _tail(output: IO[bytes]) -> str:
    """The output's last bytes, without reading the rest (a program may print gigabytes), through the
    descriptor the program was given."""
    size = os.fstat(output.fileno()).st_size
    return os.pread(output.fileno(), OUTPUT_TAIL, max(0, size - OUTPUT_TAIL)).decode("utf-8", "replace")
