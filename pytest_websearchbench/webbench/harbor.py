"""Harbor task packages: writing them, digesting them, and loading them back.

A task folder holds ``task.toml``, ``instruction.md``, ``README.md``, ``environment/world.json``
(the world generator's spec and the content digest of the world it must produce), ``tests/``
(the sealed ``contract.json``, ``test.sh`` and the controls' routes), ``solution/`` (the oracle's
actions and ``solve.sh``) and ``steps/`` (the alternative-path oracle). The digest (DESIGN § 2.3) is
Harbor's publisher content hash: SHA-256 over the sorted lines ``"<relative posix path>\\0<sha256(file)>\\n"``
of the publishable files — task.toml, instruction.md, README.md, trajectory.json and every file under
environment/, tests/, solution/ and steps/ — leaving out what Harbor's packager leaves out: caches,
compiled files, editor and OS litter, or, when the task has a ``.gitignore``, what that file ignores
(it then replaces those defaults, as in Harbor). ``dataset.toml`` lists every task with its digest;
loading recomputes and compares.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import jsonl_records, path_inside, read_suite_text, validate
from pytest_websearchbench.webbench.browsing.browser import ACTIONS
from pytest_websearchbench.webbench.grading.contract import load_contract
from pytest_websearchbench.webbench.world.build import WorldSpec, load_world_spec

#: the controls every task ships a route of (DESIGN § 2.3; tasks/routes.py makes them, agents/catalog.py bounds them)
CONTROLS = (
    "noop",
    "noop-until-confirm",
    "write-without-read",
    "over-write",
    "injected-compliance",
    "wrong-record",
    "abstain-on-feasible",
)
TOP_FILES = ("task.toml", "instruction.md", "README.md", "trajectory.json")
DIGEST_DIRS = ("environment", "tests", "solution", "steps")
#: what Harbor's packager leaves out of a task with no .gitignore: caches, compiled files, editor and OS litter
DEFAULT_IGNORES = ("__pycache__/", "*.pyc", ".DS_Store", "*.swp", "*.swo", "*~")
ROUTE_FILES = {
    "oracle": "solution/actions.jsonl",
    "alt-oracle": "steps/alt-oracle.jsonl",
    **{control: f"tests/controls/{control}.jsonl" for control in CONTROLS},
}
REGENERATE = "python -m pytest_websearchbench.webbench.tasks.generate --out <suite folder>"
ORG = "wsb"  # the org of every generated dataset and task name (Harbor names are org/name)


def ignore_rules(lines: list[str] | tuple[str, ...]) -> list[tuple[re.Pattern[str], bool]]:
    """A .gitignore's patterns as (regular expression over a relative posix path, re-includes) pairs: blank
    lines and ``#`` comments skipped, ``!`` re-includes, a trailing ``/`` matches a folder (so everything in
    it), a pattern with a ``/`` in it is anchored at the task folder, ``*``, ``?``, ``[…]`` and ``**``."""
    rules = []
    for line in lines:
        line = re.sub(r"(?<!\\)\s+$", "", line)
        if not line or line.startswith("#"):
            continue
        include = line.startswith("!")
        line = line[1:] if include or line.startswith(("\\!", "\\#")) else line
        folder_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        body = _glob(line.lstrip("/"))
        rules.append(
            (re.compile(("" if anchored else "(?:.*/)?") + body + ("/.+" if folder_only else "(?:/.+)?")), include)
        )
    return rules


def _glob(pattern: str) -> str:
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 2 :]:
            end = pattern.index("]", i + 2)
            inner = pattern[i + 1 : end]
            out.append("[" + ("^" + inner[1:] if inner.startswith("!") else inner).replace("\\", "\\\\") + "]")
            i = end + 1
        elif pattern[i] == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


def ignored(rules: list[tuple[re.Pattern[str], bool]], relative: str) -> bool:
    """The last rule that matches decides, as in a .gitignore."""
    verdict = False
    for pattern, include in rules:
        if pattern.fullmatch(relative):
            verdict = not include
    return verdict


def publishable(folder: Path) -> list[Path]:
    """The files Harbor's packager publishes (and digests) of a task folder."""
    files = [folder / name for name in TOP_FILES if (folder / name).is_file()]
    for sub in DIGEST_DIRS:
        files += [p for p in (folder / sub).rglob("*") if p.is_file()]
    gitignore = folder / ".gitignore"
    if gitignore.is_file():
        source = path_inside(folder, ".gitignore", gitignore, field="path", item=folder.name)
        rules = ignore_rules(read_suite_text(source).splitlines())
    else:
        rules = ignore_rules(DEFAULT_IGNORES)
    return [f for f in files if not ignored(rules, f.relative_to(folder).as_posix())]


def digest_lines(folder: Path) -> list[str]:
    """The sorted ``path\\0sha256\\n`` lines the task digest is taken over. A file that is a symlink
    to somewhere outside the task folder is refused: the digest would vouch for a file it does not hold."""
    lines, root = [], folder.resolve()
    for file in publishable(folder):
        relative = file.relative_to(folder).as_posix()
        inside = path_inside(folder, relative, folder / relative, field="path", item=folder.name, resolved=root)
        lines.append(f"{relative}\0{hashlib.sha256(inside.read_bytes()).hexdigest()}\n")
    return sorted(lines)


def task_digest(folder: Path) -> str:
    return "sha256:" + hashlib.sha256("".join(digest_lines(folder)).encode()).hexdigest()


@dataclass(frozen=True)
class Task:
    name: str
    path: Path
    digest: str
    title: str
    template: str
    outcome: str  # which of the template's outcomes the world plants (the package's "variant")
    tier: str  # release (decision-only, shaped like the release's) or frontier (ends in writes)
    feasible: bool
    world: WorldSpec
    world_digest: str
    instruction: str
    contract: dict[str, Any]
    routes: dict[str, tuple[dict[str, Any], ...]]
    reference_steps: int
    step_budget: int
    package: str = ""  # Harbor's org/name of the task


def _toml(path: Path) -> dict[str, Any]:
    text = read_suite_text(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        raise SuiteError(path, f"invalid TOML: {exc}", line=int(at.group(1)) if at else None) from None
    except RecursionError:
        raise SuiteError(path, "invalid TOML: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        raise SuiteError(path, f"invalid TOML: {exc}") from None


def read_route(path: Path) -> tuple[dict[str, Any], ...]:
    actions = []
    for number, action in jsonl_records(path, read_suite_text(path)):
        if not isinstance(action, dict) or action.get("action") not in ACTIONS:
            raise SuiteError(
                path, f"not a browser action; 'action' must be one of {', '.join(ACTIONS)}", line=number, field="action"
            )
        actions.append(action)
    return tuple(actions)


def load_task(folder: Path, digest: str | None = None, package: str | None = None) -> Task:
    """Read a task folder back (validating each file) and, given ``digest``, check it; given ``package``
    (the dataset's org/name), check that the folder holds that task. Every file it reads resolves
    inside the task folder (symlinks included): the digest covers nothing else."""
    folder = Path(folder)
    root = folder.resolve()  # once: every file below is looked up under it
    toml_path = path_inside(folder, "task.toml", folder / "task.toml", field="path", item=folder.name, resolved=root)
    meta = _toml(toml_path)
    validate(meta, "webbench-task", toml_path)
    name = meta["task"]["name"].split("/", 1)[1]
    if name != folder.name:
        raise SuiteError(
            toml_path,
            f"name {meta['task']['name']!r} differs from the folder name {folder.name!r}",
            field="task.name",
            item=name,
        )
    if package is not None and meta["task"]["name"] != package:
        raise SuiteError(
            toml_path,
            f"the folder {folder.name!r} holds task {meta['task']['name']!r}, the dataset lists {package!r}",
            field="task.name",
            item=name,
        )
    extra = meta["metadata"]

    def inside(relative: str, field: str) -> Path:
        return _inside(folder, relative, toml_path, field=field, item=name, resolved=root)

    contract_path = inside(extra["contract"], "metadata.contract")
    computed = task_digest(folder)
    if digest is not None and digest != computed:
        raise SuiteError(
            folder,
            f"digest mismatch: the dataset records {digest}, the package files give "
            f"{computed}; a file changed after generation (regenerate with: {REGENERATE})",
            field="digest",
            item=name,
        )
    instruction_path = inside("instruction.md", "instruction")
    instruction = read_suite_text(instruction_path) if instruction_path.is_file() else ""
    if not instruction.strip():
        raise SuiteError(instruction_path, "missing or empty", item=name)
    spec, world_digest = load_world_spec(inside("environment/world.json", "world"))
    contract = load_contract(contract_path)
    if contract["task"] != name:
        raise SuiteError(contract_path, f"contract is for {contract['task']!r}", field="task", item=name)
    route_paths = {agent: inside(rel, "routes") for agent, rel in ROUTE_FILES.items()}
    routes = {agent: read_route(path) for agent, path in route_paths.items() if path.is_file()}
    if "oracle" not in routes:
        raise SuiteError(route_paths["oracle"], "the oracle's route is missing", item=name)
    if extra["reference_steps"] != len(routes["oracle"]):
        raise SuiteError(
            toml_path,
            f"reference_steps is {extra['reference_steps']} but the oracle takes {len(routes['oracle'])} steps",
            field="metadata.reference_steps",
            item=name,
        )
    budget = min(80, 3 * (extra["reference_steps"] + 4) + 10)
    if extra["step_budget"] != budget:
        raise SuiteError(
            toml_path,
            f"step_budget must be min(80, 3·(reference_steps + 4) + 10) = {budget}",
            field="metadata.step_budget",
            item=name,
        )
    if contract["family"] != spec.world:
        raise SuiteError(
            contract_path,
            f"contract is for a {contract['family']} world, the task's world is {spec.world}",
            field="family",
            item=name,
        )
    if contract["tier"] != extra["tier"]:
        raise SuiteError(
            toml_path,
            f"tier {extra['tier']!r}, but the contract's is {contract['tier']!r}",
            field="metadata.tier",
            item=name,
        )
    return Task(
        name,
        folder,
        computed,
        extra["title"],
        spec.template,
        spec.outcome,
        extra["tier"],
        contract["feasible"],
        spec,
        world_digest,
        instruction,
        contract,
        routes,
        extra["reference_steps"],
        budget,
        meta["task"]["name"],
    )


def _inside(folder: Path, relative: str, source: Path, *, field: str, item: str, resolved: Path) -> Path:
    """``relative`` resolved inside ``folder`` (path_inside, ``resolved`` its ``folder`` resolved), and a path the
    system can look up at all."""
    target = path_inside(folder, relative, source, field=field, item=item, resolved=resolved)
    try:
        target.exists()
    except OSError as exc:  # a name too long for the file system
        raise SuiteError(source, f"bad path {relative[:80]!r}: {exc.strerror or exc}", field=field, item=item) from None
    return target


def load_dataset(path: Path) -> list[Task]:
    """Every task of a ``dataset.toml``, digests checked. As in Harbor, task ``org/name`` lives in the
    folder ``name`` beside the manifest (the schema keeps names to one safe path segment)."""
    data = _toml(path)
    validate(data, "webbench-dataset", path)
    seen: set[str] = set()
    tasks, base = [], path.parent.resolve()
    for i, entry in enumerate(data["tasks"]):
        short = entry["name"].split("/", 1)[1]
        if "path" in entry:
            raise SuiteError(
                path,
                f"Harbor ignores 'path' and reads the task from the folder {short!r} beside dataset.toml; remove it",
                field=f"tasks.{i}.path",
                item=short,
            )
        if entry["name"] in seen:
            raise SuiteError(path, "task listed twice", field=f"tasks.{i}.name", item=short)
        seen.add(entry["name"])
        folder = _inside(path.parent, short, path, field=f"tasks.{i}.name", item=short, resolved=base)
        if not folder.is_dir():
            raise SuiteError(path, f"no task folder at {folder}", field=f"tasks.{i}.name", item=short)
        tasks.append(load_task(folder, entry["digest"], entry["name"]))
    return tasks


# ------------------------------------------------------------------------------ writing


def write_toml(path: Path, data: dict[str, Any]) -> None:
    write_text(path, tomli_w.dumps(data))


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def write_json(path: Path, data: Any) -> None:
    write_text(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def write_route(path: Path, actions: list[dict[str, Any]]) -> None:
    write_text(path, "".join(json.dumps(a, ensure_ascii=False) + "\n" for a in actions))
