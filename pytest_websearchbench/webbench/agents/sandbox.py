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

import os
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
        trial = subprocess.run(
            [path, "--ro-bind", "/", "/", "--unshare-pid", "--proc", "/proc", "--dev", "/dev", "true"],
            capture_output=True,
            timeout=30,
        )
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
    def for_program(cls, command: list[str], hidden: tuple[Path, ...]) -> Sandbox:
        """The program's own folder (its files: an agent's code and data) and that of every file its command
        line names (``python3 agent.py``) — or the file alone when its folder holds the temporary folder,
        where the worlds are —, and the interpreter's prefixes, by the paths as given (a virtual environment
        reached through a symbolic link: the ``browser`` command runs that path) and as resolved. Hidden
        besides ``hidden``: the plugin's own copy of the suites (inside the interpreter's prefix)."""
        from pytest_websearchbench.core.bundled import BUNDLED_CASSETTES_DIR, BUNDLED_SUITES_DIR

        temp = Path(tempfile.gettempdir()).resolve()
        files = [Path(shutil.which(command[0]) or command[0]).resolve()]
        files += [Path(arg).resolve() for arg in command[1:] if Path(arg).is_absolute() and Path(arg).is_file()]
        readable = list(dict.fromkeys(f if _inside(temp, f.parent) else f.parent for f in files))
        prefixes = (sys.prefix, sys.base_prefix, Path(sys.executable).parent)
        readable += dict.fromkeys(form for p in prefixes for form in (Path(p).absolute(), Path(p).resolve()))
        covered = (*hidden, BUNDLED_SUITES_DIR, BUNDLED_CASSETTES_DIR)
        return cls(
            shutil.which(BWRAP) or BWRAP, tuple(dict.fromkeys(readable)), tuple(Path(h).resolve() for h in covered)
        )

    def wrap(self, command: list[str], workdir: Path) -> list[str]:
        """``command`` run in the sandbox, in ``workdir``."""
        workdir = Path(workdir).resolve()
        # /tmp is a folder of the working folder's, on disk: what the program writes there counts against its
        # disk limit (program_agent.DISK_LIMIT), where a tmpfs would fill memory unseen
        tmp = workdir / ".wsb" / "tmp"
        tmp.mkdir(parents=True, exist_ok=True)
        argv = [
            self.bwrap,
            "--die-with-parent",
            "--unshare-pid",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--bind",
            str(tmp),
            "/tmp",
        ]
        for folder in SYSTEM:
            argv += ["--ro-bind-try", folder, folder]
        for path in self.readable:
            argv += ["--ro-bind-try", str(path), str(path)]
        argv += ["--bind", str(workdir), str(workdir)]
        shown = [*self.readable, workdir, *(Path(f) for f in SYSTEM)]
        for path in self.hidden:
            if path.is_dir() and any(_inside(path, folder) for folder in shown if folder.is_dir()):
                argv += ["--tmpfs", str(path)]
        # a repository's history holds every file it ever held (the tasks' contracts and solutions among
        # them): no VCS folder in what the program may read, nor the folder a worktree's .git file points to
        for path in vcs_entries([p for p in self.readable if p.is_dir() and not _system(p)]):
            argv += ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null", str(path)]
        return [*argv, "--setenv", "TMPDIR", "/tmp", "--chdir", str(workdir), "--", *command]


#: version-control folders (or a worktree's or submodule's .git file): Git, Mercurial, Subversion, Bazaar, Darcs,
#: Jujutsu, Pijul and Sapling keep history (or, Subversion, pristine copies) in them
VCS = (".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", ".pijul", ".sl")
#: folders never searched for them: large, and no repository's own
_SKIPPED = {"node_modules", "__pycache__", "site-packages", "dist-packages", ".tox", ".nox", ".mypy_cache"}
#: how deep below a readable folder a repository is looked for
VCS_DEPTH = 4


def _system(path: Path) -> bool:
    return any(_inside(path, Path(folder)) for folder in SYSTEM)


def vcs_entries(folders: list[Path], depth: int = VCS_DEPTH) -> list[Path]:
    """Every VCS folder or file in ``folders``, to ``depth`` levels down, and above each folder (a repository
    the folder sits in is seen through it only if its root is readable, so those inside count), with the
    gitdir a ``.git`` file points to when that lies in a readable folder too."""
    found: list[Path] = []
    for top in folders:
        for root, dirs, names in os.walk(top):
            here = Path(root)
            for name in VCS:
                if name in dirs or name in names:
                    found.append(here / name)
            level = len(here.relative_to(top).parts)
            dirs[:] = [
                d for d in dirs if d not in VCS and d not in _SKIPPED and level < depth and not (here / d).is_symlink()
            ]
    for entry in list(found):
        if entry.name == ".git" and entry.is_file():
            text = entry.read_text("utf-8", "replace").strip()
            if text.startswith("gitdir:"):
                target = (entry.parent / text.removeprefix("gitdir:").strip()).resolve()
                if any(_inside(target, folder) for folder in folders):
                    found.append(target)
    return list(dict.fromkeys(found))


def confinement(mode: str, command: list[str], hidden: tuple[Path, ...]) -> tuple[Sandbox | None, str]:
    """The episode's sandbox under ``--wsb-sandbox`` (None, and why, when it runs unsandboxed)."""
    if mode == OFF:
        return None, "--wsb-sandbox=off"
    why = unavailable()
    return (None, why) if why else (Sandbox.for_program(command, hidden), "")
