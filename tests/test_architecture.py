"""ARCHITECTURE.md's rule, read from the imports: dependencies point one way and no files import each other
in a circle. Every import counts, a function's lazy one included (it is a dependency all the same). And one rule
read from the names: only the run reads the record mode."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pytest_websearchbench"

#: bottom to top; a package may import any layer below, never one above. Packages of one layer do not
#: import each other (a family never imports another family, nor reporting a family), except the top's
#: entry points (the plugin imports its hook specs).
LAYERS = (
    {"core"},
    {"engine", "cassettes", "sources"},
    {"providers"},
    {"lexbench", "codebench", "webbench", "reporting"},
    {"run"},
    {"plugin", "report", "hooks", "sampledata", "api", "emulate", "__init__"},
)
#: the same rule inside ``webbench/``, over its sub-packages and top modules: the world (and its templates),
#: the apps that serve it, the grader, the Harbor package format, the agents, then the tasks, whose release
#: gate (tasks/generate.py) runs the agents; the family and its command on top
WEBBENCH_LAYERS = (
    {"options", "world", "browsing"},
    {"webapps"},
    {"grading"},
    {"harbor"},
    {"agents"},
    {"tasks"},
    {"family", "cli", "__init__"},
)


#: the only readers of the record mode (``--wsb-record-mode``): the run decides how each call is made, the cassettes
#: how a mode records, the options declare it, the reports store it, and ``wsb-lexbench judge`` has a flag of its
#: own; a provider, family or agent is told (``ProviderContext.calls_out``, ``Settings.calls_out``, an active capture)
RECORD_MODE_READERS = ("run/", "cassettes/", "core/options.py", "reporting/", "lexbench/cli.py")
RECORD_MODE_NAMES = {"record_mode", "may_record", "CassetteMode"}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules ``name`` imports (a name imported from a package that is a module of it
    counts as that module)."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".")[: len(name.split(".")) - node.level + (1 if is_package else 0)]
                base = ".".join(here + ([node.module] if node.module else []))
            candidates = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules]
            candidates = candidates or [base]
        else:
            continue
        for candidate in candidates:
            while candidate and candidate not in modules:
                candidate = candidate.rpartition(".")[0]
            if candidate and candidate != name:
                found.add(candidate)
    return found


def _group(module: str, depth: int = 1) -> str:
    """The package (``depth`` 1) or ``webbench`` sub-package (``depth`` 2) a module belongs to."""
    parts = module.split(".")
    return parts[depth] if len(parts) > depth else "__init__"


def _layer(group: str, layers: tuple[set[str], ...] = LAYERS) -> int:
    for index, members in enumerate(layers):
        if group in members:
            return index
    raise AssertionError(f"{group!r} is in no layer of tests/test_architecture.py: place it (and in ARCHITECTURE.md)")


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def test_imports_point_down_the_layers(graph):
    top = len(LAYERS) - 1
    upward = sorted(
        f"{source} imports {target}"
        for source, targets in graph.items()
        for target in targets
        if _group(source) != _group(target) and _layer(_group(target)) >= _layer(_group(source)) != top
    )
    assert upward == [], "imports against ARCHITECTURE.md's layers:\n" + "\n".join(upward)


def test_webbench_imports_point_down_its_layers(graph):
    inside = {
        name: {t for t in targets if _group(t) == "webbench"}
        for name, targets in graph.items()
        if _group(name) == "webbench"
    }
    top = len(WEBBENCH_LAYERS) - 1
    upward = sorted(
        f"{source} imports {target}"
        for source, targets in inside.items()
        for target in targets
        if _group(source, 2) != _group(target, 2)
        and _layer(_group(target, 2), WEBBENCH_LAYERS) >= _layer(_group(source, 2), WEBBENCH_LAYERS) != top
    )
    assert upward == [], "imports against ARCHITECTURE.md's webbench layers:\n" + "\n".join(upward)


def test_no_import_circle_between_files(graph):
    circles = _strongly_connected(graph)
    assert circles == [], "import circles:\n" + "\n".join(" ↔ ".join(sorted(c)) for c in circles)


def _record_mode_reads(source: str) -> list[str]:
    """The record mode's names a module's ``source`` uses (a name, an attribute, an argument, an import), by
    line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        name = (
            getattr(node, "id", None)
            or getattr(node, "attr", None)
            or (node.arg if isinstance(node, (ast.arg, ast.keyword)) else None)
            or (node.name if isinstance(node, ast.alias) else None)
        )
        if name in RECORD_MODE_NAMES:
            found.append(f"{node.lineno} {name}")
    return found


def test_only_the_run_reads_the_record_mode():
    reads = [
        f"{module}:{read}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if not (module := path.relative_to(PACKAGE).as_posix()).startswith(RECORD_MODE_READERS)
        for read in _record_mode_reads(path.read_text("utf-8"))
    ]
    assert reads == [], "the record mode read outside the run (ARCHITECTURE.md, step 3):\n" + "\n".join(reads)


def test_the_record_mode_check_sees_a_read_and_not_a_word():
    source = (
        'def run(settings):\n    """--wsb-record-mode"""\n    return settings.record_mode.may_record  # record_mode\n'
    )
    assert _record_mode_reads(source) == ["3 may_record", "3 record_mode"]


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iteratively: the components of more than one file."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_the_checks_see_a_planted_circle_and_an_upward_import():
    planted = {
        "pytest_websearchbench.core.a": {"pytest_websearchbench.run.b"},
        "pytest_websearchbench.run.b": {"pytest_websearchbench.core.a"},
    }
    assert len(_strongly_connected(planted)) == 1
    assert _layer(_group("pytest_websearchbench.run.b")) > _layer(_group("pytest_websearchbench.core.a"))
    tasks, agents = "pytest_websearchbench.webbench.tasks.generate", "pytest_websearchbench.webbench.agents.episode"
    assert _layer(_group(tasks, 2), WEBBENCH_LAYERS) > _layer(_group(agents, 2), WEBBENCH_LAYERS)
