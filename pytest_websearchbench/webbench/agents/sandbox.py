"""Where a program agent runs: inside bubblewrap (``bwrap``) when the machine allows it.

In the sandbox the program sees its working folder (read-write), its own program's folder and the
interpreter the ``browser`` command runs on (read-only), the system's programs and libraries
(``/usr``, ``/etc``, …, read-only), an empty ``/tmp`` and a ``/proc`` of its own PID namespace; it
shares the loopback network, where the world URL and its browser session are. It does not see the
task's contract and routes (every suite folder of the episode is covered even inside a folder it may
read), the world's files, nor pytest's process (``/proc/<pytest>/cwd`` does not exist in there).

``--wsb-sandbox``: ``auto`` (the default) runs unsandboxed where bwrap cannot run, and the run's
summary says so; ``require`` makes that a usage error; ``off`` never sandboxes. Unsandboxed, the
verifier still trusts only what the world's server saw (``webapps.trace``), but the program can
read whatever its user can, the task's files included.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pytest_websearchbench.webbench.options import SANDBOX_MODES

AUTO, REQUIRE, OFF = SANDBOX_MODES
BWRAP = "bwrap"
INSTALL = "apt-get install bubblewrap"
#: the system's read-only part inside the sandbox (missing ones are skipped)
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")


@lru_cache(maxsize=1)
def unavailable() -> str:
    """Why bwrap cannot sandbox a program here ('' when it can): not installed, or it fails to start
    (no user namespaces, a container that forbids mounts)."""
    path = shutil.which(BWRAP)
    if path is None:
        return f"bwrap is not installed ({INSTALL})"
    try:
        trial = subprocess.run([path, "--ro-bind", "/", "/", "--unshare-pid", "--proc", "/proc", "--dev", "/dev",
                                "true"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap cannot run here ({exc})"
    if trial.returncode != 0:
        said = trial.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"bwrap cannot run here ({said[-1] if said else f'exit status {trial.returncode}'})"
    return ""


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


@dataclass(frozen=True)
class Sandbox:
    """One episode's bwrap: what the program may read, and what stays covered."""

    bwrap: str
    readable: tuple[Path, ...]  # read-only folders or files
    hidden: tuple[Path, ...]  # covered by an empty folder wherever a readable folder holds them

    @classmethod
    def for_program(cls, command: list[str], hidden: tuple[Path, ...]) -> "Sandbox":
        """The program's own folder (its files: an agent's code and data) — or the program file alone when
        that folder holds the temporary folder, where the worlds are — and the interpreter's prefixes."""
        temp = Path(tempfile.gettempdir()).resolve()
        program = Path(shutil.which(command[0]) or command[0]).resolve()
        readable = [program if _inside(temp, program.parent) else program.parent]
        readable += {Path(p).resolve() for p in (sys.prefix, sys.base_prefix, Path(sys.executable).resolve().parent)}
        return cls(shutil.which(BWRAP) or BWRAP, tuple(readable), tuple(Path(h).resolve() for h in hidden))

    def wrap(self, command: list[str], workdir: Path) -> list[str]:
        """``command`` run in the sandbox, in ``workdir``."""
        workdir = Path(workdir).resolve()
        argv = [self.bwrap, "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                "--unshare-cgroup-try", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
        for folder in SYSTEM:
            argv += ["--ro-bind-try", folder, folder]
        for path in self.readable:
            argv += ["--ro-bind", str(path), str(path)]
        argv += ["--bind", str(workdir), str(workdir)]
        shown = [*self.readable, workdir, *(Path(f) for f in SYSTEM)]
        for path in self.hidden:
            if path.is_dir() and any(_inside(path, folder) for folder in shown if folder.is_dir()):
                argv += ["--tmpfs", str(path)]
        return [*argv, "--setenv", "TMPDIR", "/tmp", "--chdir", str(workdir), "--", *command]


def confinement(mode: str, command: list[str], hidden: tuple[Path, ...]) -> tuple[Sandbox | None, str]:
    """The episode's sandbox under ``--wsb-sandbox`` (None, and why, when it runs unsandboxed)."""
    if mode == OFF:
        return None, "--wsb-sandbox=off"
    why = unavailable()
    return (None, why) if why else (Sandbox.for_program(command, hidden), "")
