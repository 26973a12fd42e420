"""Where a program agent runs: inside bubblewrap (``bwrap``) when the machine allows it.

What the sandbox promises (the WebBench guide's threat model): the program sees what a Harbor task's agent
sees — its working folder (read-write), its own program's folder and the interpreter the ``browser`` command
runs on (read-only), the system's programs and libraries (``/usr``, ``/etc``, …, read-only), an empty
``/tmp`` and a ``/proc`` of its own PID namespace — and nothing of this plugin: its package wherever it is
installed or checked out (site-packages, an editable install's hooks and source, the bundled suites and
cassettes), any VCS folder, the task's contract and routes (every suite folder of the episode is covered
even inside a folder it may read), the world's files, nor pytest's process (``/proc/<pytest>/cwd`` does not
exist in there). Its network is a namespace of its own where only the world's and its browser session's
loopback ports are reachable, relayed from the host (``agents.relay``); ``--wsb-agent-net=host`` shares the
host's network instead, and the run says so.

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
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from pytest_websearchbench.webbench.options import NETWORK_MODES, SANDBOX_MODES

if TYPE_CHECKING:
    from pytest_websearchbench.webbench.agents.relay import HostRelay

AUTO, REQUIRE, OFF = SANDBOX_MODES
NET_WORLD, NET_HOST = NETWORK_MODES
BWRAP = "bwrap"
INSTALL = "apt-get install bubblewrap"
#: the system's read-only part inside the sandbox (missing ones are skipped)
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")


@lru_cache(maxsize=1)
def unavailable() -> str:
    """Why bwrap cannot sandbox a program here ('' when it can): not installed, or it fails to start
    (no user namespaces, a container that forbids mounts)."""
    return _trial(["--unshare-pid", "--proc", "/proc", "--dev", "/dev"], "bwrap cannot run here")


@lru_cache(maxsize=1)
def network_unavailable() -> str:
    """Why bwrap cannot give a program a network namespace of its own here ('' when it can)."""
    return _trial(["--unshare-net", "--unshare-pid", "--proc", "/proc"], "bwrap cannot unshare the network here")


def _trial(arguments: list[str], failing: str) -> str:
    """Why bwrap with ``arguments`` cannot run ``true`` here, after ``failing`` ('' when it can)."""
    path = shutil.which(BWRAP)
    if path is None:
        return f"bwrap is not installed ({INSTALL})"
    try:
        trial = subprocess.run([path, "--ro-bind", "/", "/", *arguments, "true"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{failing} ({exc})"
    if trial.returncode != 0:
        said = trial.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"{failing} ({said[-1] if said else f'exit status {trial.returncode}'})"
    return ""


#: what names this plugin's files in a site-packages folder: the package, its metadata, an editable install's
#: hooks (a .pth file or a finder module pointing at the checkout)
_FOOTPRINT = (
    "pytest_websearchbench",
    "pytest_websearchbench-*",
    "__editable__*pytest_websearchbench*",
    "__pycache__/__editable__*pytest_websearchbench*",
)
_SITE_FOLDERS = ("site-packages", "dist-packages")


def plugin_footprint(roots: list[Path]) -> list[Path]:
    """Every file and folder of this plugin a program could read below ``roots`` (the interpreter prefixes and
    system folders the sandbox shows): the package and its metadata in each site-packages folder there, an
    editable install's hooks, a .pth file naming the checkout, the checkout itself when the package runs from
    one (its data, tests and history are where a route can be rebuilt from), and the plugin's cache folder."""
    from pytest_websearchbench.core.cache import user_cache_dir

    package = _package()
    checkout = plugin_checkout()
    # the user's cache holds built worlds (every answer in their rows)
    found = [package, *([checkout] if checkout else []), user_cache_dir("worlds").parent]
    for root in roots:
        for pattern in ("lib/python3*/", "lib64/python3*/", "local/lib/python3*/", "lib/python3/"):
            for lib in root.glob(pattern):
                for site in (lib / name for name in _SITE_FOLDERS):
                    if not site.is_dir():
                        continue
                    for name in _FOOTPRINT:
                        found += site.glob(name)
                    words = ("websearchbench", *([str(checkout)] if checkout else []))
                    found += [pth for pth in site.glob("*.pth") if _names(pth, words)]
    return list(dict.fromkeys(found))


def _package() -> Path:
    """The plugin's package folder, found from this file's own place (webbench/agents/sandbox.py)."""
    return Path(__file__).resolve().parents[2]


def plugin_checkout() -> Path | None:
    """The source checkout the plugin runs from (an editable install, or PYTHONPATH), or None (a wheel)."""
    root = _package().parent
    return root if (root / "pyproject.toml").is_file() else None


def _names(path: Path, words: tuple[str, ...]) -> bool:
    try:
        text = path.read_text("utf-8", "replace")
    except OSError:
        return False
    return any(word in text for word in words)


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


@dataclass(frozen=True)
class Sandbox:
    """One episode's bwrap: what the program may read, and what stays covered."""

    bwrap: str
    readable: tuple[Path, ...]  # read-only folders or files
    hidden: tuple[Path, ...]  # covered (an empty folder, or an empty file) wherever a readable folder holds them
    own_network: bool = True  # a network namespace of its own, the world relayed into it (else the host's)
    network_note: str = ""  # why the host's network is shared ("" when it is not)

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
        # a program kept in the temporary folder (where the worlds are) or in a folder holding this plugin's
        # checkout is shown alone, not its folder
        checkout = plugin_checkout()
        shared = [temp, *([checkout] if checkout else [])]
        readable = list(dict.fromkeys(f if any(_inside(s, f.parent) for s in shared) else f.parent for f in files))
        prefixes = (sys.prefix, sys.base_prefix, Path(sys.executable).parent)
        readable += dict.fromkeys(form for p in prefixes for form in (Path(p).absolute(), Path(p).resolve()))
        covered = [Path(h).resolve() for h in (*hidden, BUNDLED_SUITES_DIR, BUNDLED_CASSETTES_DIR)]
        roots = [p for p in readable if p.is_dir()] + [Path(f) for f in SYSTEM if Path(f).is_dir()]
        covered += plugin_footprint(roots)
        return cls(shutil.which(BWRAP) or BWRAP, tuple(dict.fromkeys(readable)), tuple(dict.fromkeys(covered)))

    def wrap(self, command: list[str], workdir: Path, relay: HostRelay | None = None) -> list[str]:
        """``command`` run in the sandbox, in ``workdir``; with ``relay``, in a network namespace of its own
        where only the relay's ports are reachable."""
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
            if not any(_inside(path, folder) for folder in shown if folder.is_dir()):
                continue  # out of sight already (and bwrap cannot cover what it does not show)
            # what the program must keep that lies inside it (a virtual environment or the agent's own folder
            # kept in a checkout) stays; the rest is covered
            keep = [k for k in (workdir, *self.readable) if _inside(k, path) and k != path]
            argv += cover_around(path, keep)
        # a repository's history holds every file it ever held (the tasks' contracts and solutions among
        # them): no VCS folder in what the program may read, nor the folder a worktree's .git file points to
        for path in vcs_entries([p for p in self.readable if p.is_dir() and not _system(p)]):
            argv += ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null", str(path)]
        if relay is not None:
            argv += ["--unshare-net", "--ro-bind", str(relay.folder), str(relay.folder)]
            command = relay.command(sys.executable, command)
        return [*argv, "--setenv", "TMPDIR", "/tmp", "--chdir", str(workdir), "--", *command]


def cover_around(folder: Path, keep: list[Path]) -> list[str]:
    """bwrap arguments covering everything in ``folder`` but the way down to each folder of ``keep`` inside it
    (an agent kept in a checkout sees its own folder, not the checkout's package, data or tests)."""
    argv: list[str] = []
    if not folder.exists() or folder.is_symlink():
        return argv  # nothing there to show (a link is covered where it leads)
    inside = [k for k in keep if _inside(k, folder) and k != folder]
    if not inside:
        return ["--tmpfs", str(folder)] if folder.is_dir() else ["--ro-bind", "/dev/null", str(folder)]
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return argv
    for entry in entries:
        if any(_inside(k, entry) for k in inside):
            if entry.is_dir() and not entry.is_symlink() and entry not in inside:
                argv += cover_around(entry, inside)
        elif entry.is_symlink() or not entry.exists():
            continue  # a link is followed to what it names, which is covered where it lies
        else:
            argv += ["--tmpfs", str(entry)] if entry.is_dir() else ["--ro-bind", "/dev/null", str(entry)]
    return argv


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


def confinement(
    mode: str, command: list[str], hidden: tuple[Path, ...], network: str = NET_WORLD
) -> tuple[Sandbox | None, str]:
    """The episode's sandbox under ``--wsb-sandbox`` and ``--wsb-agent-net`` (None, and why, when it runs
    unsandboxed)."""
    if mode == OFF:
        return None, "--wsb-sandbox=off"
    why = unavailable()
    if why:
        return None, why
    sandbox = Sandbox.for_program(command, hidden)
    if network == NET_HOST:
        return replace(sandbox, own_network=False, network_note="--wsb-agent-net=host"), ""
    no_namespace = network_unavailable()
    if no_namespace:
        return replace(sandbox, own_network=False, network_note=no_namespace), ""
    return sandbox, ""


UNSANDBOXED_NETWORK = "UNSANDBOXED NETWORK"


def confined(sandbox: Sandbox | None, unsandboxed: str) -> str:
    """How a program ran, as its record keeps it (``sandbox``): "bwrap", "bwrap; UNSANDBOXED NETWORK (<why>)" or
    "none: <why>"; ``read_confined`` reads it back."""
    if sandbox is None:
        return f"none: {unsandboxed or 'not asked for'}"
    return BWRAP if sandbox.own_network else f"{BWRAP}; {UNSANDBOXED_NETWORK} ({sandbox.network_note})"


class Confinement(NamedTuple):
    in_bwrap: bool
    lacking: str  # what was not confined, to be shown in red ("" when nothing)

    def counted(self, n: int) -> str:
        """``n`` episodes run so, as the summary's sandbox row says it."""
        if not self.in_bwrap:
            return f"{n} {self.lacking}"
        return f"{n} in bwrap" + (f", {self.lacking}" if self.lacking else "")


def read_confined(record: str) -> Confinement:
    """A record's ``sandbox`` (``confined``'s words) as the summary and the drill-down show it."""
    if record == BWRAP:
        return Confinement(True, "")
    if record.startswith(f"{BWRAP}; "):
        return Confinement(True, record.partition("; ")[2])
    return Confinement(False, f"UNSANDBOXED ({record.removeprefix('none: ')})")
