"""Seeded random mutations of the bundled suites, each collected with ``pytest --co -q``: is every bad
suite a clean collection error (one line naming the file), and does any read a file outside its folder?

Each seed copies one suite into a fresh temporary folder, applies one mutation and collects it in
this process (``pytest.main``, stdout captured). The suites: ``code-sample`` (published rows), the same
tickets as a harness catalog (``catalog.json`` with ``<id>/prompt.txt``, ``starter/``, ``gold/``),
``lexbench-sample``, ``lexbench-sample-factual`` and ``webbench-sample``. The mutations: byte flips
(invalid UTF-8 included), inserted invalid UTF-8, deep nesting (JSON and TOML), huge numbers,
huge / absolute / ``..`` values in every path-valued field (manifest ``items``/``grades``, catalog
``outfile``/``id``/``dir``, a WebBench task's ``path`` and ``verifier.contract``), ids of extreme length
or shape, empty files, structural JSON changes and TOML mutations. Beside the suite sits an
``outside/`` folder with valid copies of the suite's files, so a loader that follows a path out of the
folder would succeed, and be seen.

Each outcome is one of: ``clean`` (every collection error is one line naming a file), ``accepted``
(collected without error), ``unnamed`` (a one-line error naming no file), ``traceback`` (a longer
report, an internal error, or an exception out of pytest). Apart from that, a run that opened an
existing file outside the suite's folder, the package and the Python installation (an audit hook on
``open``) counts as ``outside``.

    python benchmarks/suite_fuzz.py                 # 360 seeds: 0..359
    python benchmarks/suite_fuzz.py --seeds 40 --start 100 --show accepted
    python benchmarks/suite_fuzz.py --only 17 -v    # one seed, with pytest's output

Figures, 360 seeds (2 vCPU container shared with other jobs, Python 3.11.7, pytest 9.2, about 150 s):

| tree | clean | accepted | unnamed | traceback | outside |
|---|---:|---:|---:|---:|---:|
| main at 5bb1774 (the core's suite reader already fixed, the code and WebBench loaders not) | 293 | 32 | 0 | 35 | 2 |
| after issue 11's loader fixes | 330 | 30 | 0 | 0 | 0 |

The 35 were invalid UTF-8 in a catalog item's files and in WebBench routes, task.toml and
instruction.md (UnicodeDecodeError), TOML nested too deeply (RecursionError), a huge number in TOML,
and a path too long or a folder where a contract belongs (OSError); the 2 outside reads were a WebBench
task ``path`` and a ``verifier.contract`` pointing at a complete copy outside the suite.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO / "suites"
SUITES = ("code-sample", "code-catalog", "lexbench-sample", "lexbench-sample-factual", "webbench-sample")
OUTCOMES = ("clean", "accepted", "unnamed", "traceback")
#: seconds one collection may take before it counts as a traceback (a hang is no clean error)
TIMEOUT = 120

# ------------------------------------------------------------------------------ the audit hook

_opened: list[str] | None = None


def _audit(event: str, args: tuple) -> None:
    if event == "open" and _opened is not None and isinstance(args[0], (str, bytes, os.PathLike)):
        _opened.append(os.path.join(os.getcwd(), os.fsdecode(args[0])))  # not normalised: "sub/.." stays


def allowed_roots() -> tuple[str, ...]:
    """Where collection may read: the Python installation and the venv, and the plugin's package."""
    import pytest_websearchbench

    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(pytest_websearchbench.__file__).parent)}
    return tuple(os.path.realpath(r) + os.sep for r in roots) + ("/dev/", "/proc/")


def outside_reads(opened: list[str], folder: Path, roots: tuple[str, ...]) -> list[str]:
    """Files opened outside ``folder`` and ``roots`` (symlinks resolved) that the system could open:
    a path through a folder that does not exist ("sub/../x") opens nothing."""
    inside = os.path.realpath(folder) + os.sep
    found = []
    for path in dict.fromkeys(opened):
        real = os.path.realpath(path)
        if real.startswith(inside) or real.startswith(roots) or not os.path.isfile(path):
            continue
        found.append(real)
    return found


# ------------------------------------------------------------------------------ the suites


def build_catalog(rows_folder: Path, folder: Path) -> None:
    """``code-sample``'s tickets as a harness catalog (``catalog.json`` and one folder per ticket)."""
    rows = [json.loads(line) for line in (rows_folder / "eval.jsonl").read_text("utf-8").splitlines() if line.strip()]
    items = []
    for row in rows:
        task = folder / row["task_id"]
        outfile = row.get("outfile", "solution.py")
        for sub, key in (("starter", "starter_code"), ("gold", "gold_code")):
            (task / sub).mkdir(parents=True, exist_ok=True)
            (task / sub / outfile).write_text(row[key], "utf-8")
        (task / "prompt.txt").write_text(row.get("prompt") or row["ticket"], "utf-8")
        item = {"id": row["task_id"], "vendor": row["vendor"]}
        if outfile != "solution.py":
            item["outfile"] = outfile
        item.update({k: row[k] for k in ("required", "query_forbidden", "cite_urls") if k in row})
        items.append(item)
    (folder / "catalog.json").write_text(
        json.dumps({"defaults": {"outfile": "solution.py"}, "items": items}, indent=2) + "\n", "utf-8"
    )
    manifest = json.loads((rows_folder / "suite.json").read_text("utf-8"))
    manifest.update(name="code-catalog", items="catalog.json")
    manifest.pop("corpus", None)
    (folder / "suite.json").write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")


def copy_suite(name: str, folder: Path) -> None:
    if name == "code-catalog":
        folder.mkdir(parents=True)
        build_catalog(BUNDLED / "code-sample", folder)
    else:
        shutil.copytree(BUNDLED / name, folder)


# ------------------------------------------------------------------------------ mutations


@dataclass
class Case:
    """One seed's suite copy: where it is, and what the mutation did."""

    seed: int
    suite: str
    folder: Path
    outside: Path
    rng: random.Random
    what: list[str] = field(default_factory=list)

    def files(self, suffixes: tuple[str, ...] = (".json", ".jsonl", ".toml", ".txt", ".py", ".md")) -> list[Path]:
        return sorted(p for p in self.folder.rglob("*") if p.is_file() and p.suffix in suffixes)

    def pick(self, files: list[Path]) -> Path:
        return files[self.rng.randrange(len(files))]

    def rel(self, path: Path) -> str:
        return path.relative_to(self.folder).as_posix()

    def note(self, text: str) -> None:
        self.what.append(text)


def _records_file(case: Case) -> Path:
    """The file holding the suite's items (the most telling target of a structural mutation)."""
    manifest = json.loads((case.folder / "suite.json").read_text("utf-8"))
    return case.folder / manifest["items"]


def _json_files(case: Case) -> list[Path]:
    return case.files((".json", ".jsonl"))


def _lines(path: Path) -> list[str]:
    return path.read_text("utf-8").splitlines(keepends=True)


def _edit_record(case: Case, change: Callable[[dict, random.Random], str]) -> None:
    """Apply ``change`` to one JSON object: a line of a JSONL file, or an object inside a JSON file."""
    path = case.pick(_json_files(case))
    if path.suffix == ".jsonl":
        lines = _lines(path)
        index = case.rng.randrange(len(lines))
        record = json.loads(lines[index])
        said = change(record, case.rng)
        lines[index] = _dumps(record) + "\n"
        path.write_text("".join(lines), "utf-8")
        case.note(f"{case.rel(path)} line {index + 1}: {said}")
        return
    document = json.loads(path.read_text("utf-8"))
    objects = _objects(document)
    target = objects[case.rng.randrange(len(objects))]
    said = change(target, case.rng)
    path.write_text(_dumps(document, indent=1), "utf-8")
    case.note(f"{case.rel(path)}: {said}")


def _objects(value) -> list[dict]:
    found = []
    if isinstance(value, dict):
        found.append(value)
        for v in value.values():
            found += _objects(v)
    elif isinstance(value, list):
        for v in value:
            found += _objects(v)
    return found


_RAW = "\x00raw:"  # a placeholder whose text is written into the JSON as it is (huge numbers, deep nesting)


def _dumps(value, indent: int | None = None) -> str:
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return re.sub(r'"\\u0000raw:((?:[^"\\]|\\.)*)"', lambda m: json.loads(f'"{m.group(1)}"'), text)


def _raw(text: str) -> str:
    return _RAW + text


def byte_flip(case: Case) -> None:
    path = case.pick(case.files())
    data = bytearray(path.read_bytes())
    if not data:
        data = bytearray(b"\n")
    offset = case.rng.randrange(len(data))
    value = case.rng.choice([0xFF, 0xFE, 0xC3, 0x80, 0xED, 0x00, case.rng.randrange(256)])
    data[offset] = value
    path.write_bytes(bytes(data))
    case.note(f"{case.rel(path)} byte {offset} := 0x{value:02x}")


def invalid_utf8(case: Case) -> None:
    path = case.pick(case.files())
    data = path.read_bytes()
    offset = case.rng.randrange(len(data) + 1)
    junk = case.rng.choice([b"\xc3\x28", b"\xff", b"\xed\xa0\x80", b"\xe2\x82", b"\xf0\x28\x8c\xbc"])
    path.write_bytes(data[:offset] + junk + data[offset:])
    case.note(f"{case.rel(path)}: {junk!r} inserted at byte {offset}")


def deep_nesting(case: Case) -> None:
    depth = case.rng.choice([1_000, 5_000, 100_000])
    tomls = case.files((".toml",))
    if tomls and case.rng.random() < 0.5:
        path = case.pick(tomls)
        path.write_text(f"deep = {'[' * depth}{']' * depth}\n" + path.read_text("utf-8"), "utf-8")
        case.note(f"{case.rel(path)}: an array nested {depth} deep")
        return

    def change(record: dict, rng: random.Random) -> str:
        key = rng.choice(sorted(record)) if record else "x"
        record[key] = _raw("[" * depth + "]" * depth)
        return f"{key!r} nested {depth} deep"

    _edit_record(case, change)


def huge_number(case: Case) -> None:
    text = case.rng.choice(["9" * 5000, "-" + "7" * 4400, "1e999999", "1" + "0" * 400, "0." + "1" * 5000])
    tomls = case.files((".toml",))
    if tomls and case.rng.random() < 0.4:
        path = case.pick(tomls)
        lines = _lines(path)
        numeric = [i for i, line in enumerate(lines) if re.match(r"\s*\w+\s*=\s*-?\d", line)]
        index = case.rng.choice(numeric) if numeric else 0
        key = lines[index].split("=")[0].strip() if numeric else "huge"
        lines[index] = (
            f"{key} = {text.replace('e999999', 'e99999')}\n" if numeric else f"huge = {text}\n" + lines[index]
        )
        path.write_text("".join(lines), "utf-8")
        case.note(f"{case.rel(path)}: {key} = a {len(text)}-character number")
        return

    def change(record: dict, rng: random.Random) -> str:
        key = rng.choice(sorted(record)) if record else "x"
        record[key] = _raw(text)
        return f"{key!r} = a {len(text)}-character number"

    _edit_record(case, change)


def _path_values(base: Path, target: Path) -> list[str]:
    """Hostile values for a field whose paths are relative to ``base``: the way out of the folder to
    ``target`` (a valid copy outside), the same absolute, system files, huge, empty, NUL, a drive."""
    way_out = os.path.relpath(target, base)
    return [
        way_out,
        str(target),
        "sub/../" + way_out,
        "/etc/passwd",
        "../" * 30 + "etc/passwd",
        "x" * 5000,
        "a/" * 3000 + "b",
        "",
        ".",
        "..",
        "items\x00.jsonl",
        "C:\\Windows\\win.ini",
    ]


def path_field(case: Case) -> None:
    targets = ["manifest"] + {
        "code-catalog": ["outfile", "id", "dir"],
        "webbench-sample": ["task path", "contract", "task path", "contract"],
        "lexbench-sample": ["grades"],
    }.get(case.suite, [])
    target = case.rng.choice(targets)
    manifest_path = case.folder / "suite.json"
    if target in ("manifest", "grades"):
        key = "grades" if target == "grades" else "items"
        value = case.rng.choice(_path_values(case.folder, case.outside / "items.jsonl"))
        manifest = json.loads(manifest_path.read_text("utf-8"))
        manifest[key] = value
        manifest_path.write_text(json.dumps(manifest, indent=1), "utf-8")
        case.note(f"suite.json {key} = {value[:60]!r}")
    elif target in ("outfile", "id", "dir"):
        catalog_path = case.folder / "catalog.json"
        catalog = json.loads(catalog_path.read_text("utf-8"))
        index = case.rng.randrange(len(catalog["items"]))
        item = catalog["items"][index]
        base = {"outfile": case.folder / item["id"] / "starter", "id": case.folder, "dir": case.folder}[target]
        value = case.rng.choice(
            _path_values(base, case.outside / item["id"] / ("starter/solution.py" if target == "outfile" else ""))
        )
        if target == "outfile" and case.rng.random() < 0.5:
            catalog["defaults"]["outfile"] = value
            where = "defaults"
        else:
            item[target] = value
            where = f"items[{index}]"
        catalog_path.write_text(json.dumps(catalog, indent=2), "utf-8")
        case.note(f"catalog.json {where}.{target} = {value[:60]!r}")
    elif target == "task path":
        dataset = case.folder / "dataset.toml"
        text = dataset.read_text("utf-8")
        old = case.rng.choice(re.findall(r'^name = "wsb/(.*)"$', text, flags=re.M))
        value = case.rng.choice(_path_values(case.folder, case.outside / old))
        dataset.write_text(
            text.replace(f'name = "wsb/{old}"\n', f'name = "wsb/{old}"\npath = {_toml_string(value)}\n', 1), "utf-8"
        )
        case.note(f"dataset.toml task {old}: path = {value[:60]!r}")
    else:
        toml = case.pick(sorted(case.folder.glob("*/task.toml")))
        value = case.rng.choice(_path_values(toml.parent, case.outside / toml.parent.name / "tests" / "contract.json"))
        text = toml.read_text("utf-8")
        toml.write_text(
            re.sub(r'^contract = ".*"$', lambda m: f"contract = {_toml_string(value)}", text, flags=re.M), "utf-8"
        )
        case.note(f"{case.rel(toml)}: metadata.contract = {value[:60]!r}")


def _toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a TOML basic string (\u escapes included)


def extreme_id(case: Case) -> None:
    value = case.rng.choice(
        [
            "x" * 301,
            "y" * 10_000,
            "ß" * 200,
            "a/b",
            "../x",
            "",
            "\x00",
            "id with space",
            "CON",
            "-leading-dash",
            "ok" + "\u202e" + "txt",
            "é" * 3,
        ]
    )
    if case.suite == "webbench-sample" and case.rng.random() < 0.6:
        dataset = case.folder / "dataset.toml"
        text = dataset.read_text("utf-8")
        names = re.findall(r'^name = "(.*)"$', text, flags=re.M)[1:]  # the first is the dataset's own
        old = case.rng.choice(names)
        dataset.write_text(text.replace(f'name = "{old}"', f"name = {_toml_string(value)}", 1), "utf-8")
        case.note(f"dataset.toml task {old}: name = {value[:40]!r} ({len(value)} chars)")
        return
    if case.rng.random() < 0.15:
        manifest_path = case.folder / "suite.json"
        manifest = json.loads(manifest_path.read_text("utf-8"))
        manifest["name"] = value
        manifest_path.write_text(json.dumps(manifest), "utf-8")
        case.note(f"suite.json name = {value[:40]!r} ({len(value)} chars)")
        return
    key = {"code-sample": "task_id", "code-catalog": "id"}.get(case.suite, "id")
    path = _records_file(case)
    if path.suffix == ".jsonl":
        lines = _lines(path)
        index = case.rng.randrange(len(lines))
        record = json.loads(lines[index])
        record[key] = value
        lines[index] = json.dumps(record, ensure_ascii=False) + "\n"
        path.write_text("".join(lines), "utf-8")
        case.note(f"{case.rel(path)} line {index + 1}: {key} = {value[:40]!r} ({len(value)} chars)")
    elif path.suffix == ".json":
        document = json.loads(path.read_text("utf-8"))
        index = case.rng.randrange(len(document["items"]))
        document["items"][index][key] = value
        path.write_text(json.dumps(document, indent=2, ensure_ascii=False), "utf-8")
        case.note(f"{case.rel(path)} items[{index}].{key} = {value[:40]!r} ({len(value)} chars)")
    else:  # webbench: a task's own name
        toml = case.pick(sorted(case.folder.glob("*/task.toml")))
        toml.write_text(
            re.sub(
                r'^name = ".*"$',
                lambda m: f"name = {_toml_string(value)}",
                toml.read_text("utf-8"),
                count=1,
                flags=re.M,
            ),
            "utf-8",
        )
        case.note(f"{case.rel(toml)}: task.name = {value[:40]!r} ({len(value)} chars)")


def empty_file(case: Case) -> None:
    path = case.pick(case.files() + [_records_file(case)] * 3)
    content = case.rng.choice([b"", b"\n", b"   \n\n", b"\xef\xbb\xbf"])
    path.write_bytes(content)
    case.note(f"{case.rel(path)} := {content!r}")


def json_structure(case: Case) -> None:
    kind = case.rng.choice(
        ["drop key", "retype", "duplicate line", "truncate line", "not an object", "garbage line", "null byte line"]
    )
    if kind in ("duplicate line", "truncate line", "not an object", "garbage line", "null byte line"):
        jsonl = case.files((".jsonl",)) or [case.folder / "suite.json"]
        path = case.pick(jsonl)
        lines = _lines(path) or ["\n"]
        index = case.rng.randrange(len(lines))
        line = lines[index]
        lines[index] = {
            "duplicate line": line + line,
            "truncate line": line[: max(1, len(line) // 2)] + "\n",
            "not an object": case.rng.choice(["[]", "1", "null", '"text"', "true"]) + "\n",
            "garbage line": "{this is not json\n",
            "null byte line": "\x00\n",
        }[kind]
        path.write_text("".join(lines), "utf-8")
        case.note(f"{case.rel(path)} line {index + 1}: {kind}")
        return

    def change(record: dict, rng: random.Random) -> str:
        if not record:
            record["x"] = 1
            return "added x"
        key = rng.choice(sorted(record))
        if kind == "drop key":
            del record[key]
            return f"dropped {key!r}"
        record[key] = rng.choice([None, [], {}, True, -1, 1.5, "", "text", [None], {"nested": {}}])
        return f"{key!r} := {record[key]!r}"

    _edit_record(case, change)


def toml_mutation(case: Case) -> None:
    path = case.pick(case.files((".toml",)))
    lines = _lines(path)
    kind = case.rng.choice(
        [
            "delete line",
            "duplicate key",
            "string to int",
            "unquote",
            "bad digest",
            "redefine table",
            "missing task fields",
            "wrong type",
        ]
    )
    index = case.rng.randrange(len(lines))
    if kind == "delete line":
        del lines[index]
    elif kind == "duplicate key":
        keyed = [i for i, line in enumerate(lines) if "=" in line] or [0]
        index = case.rng.choice(keyed)
        lines.insert(index, lines[index])
    elif kind == "string to int":
        keyed = [i for i, line in enumerate(lines) if re.match(r'\s*\w+ = ".*"', line)] or [0]
        index = case.rng.choice(keyed)
        lines[index] = re.sub(r'= ".*"', "= 42", lines[index])
    elif kind == "unquote":
        lines[index] = lines[index].replace('"', "")
    elif kind == "bad digest":
        lines = [re.sub(r"sha256:[0-9a-f]{64}", "sha256:" + "0" * 64, line, count=1) for line in lines]
    elif kind == "redefine table":
        tables = [line for line in lines if line.startswith("[")] or ["[x]\n"]
        lines.append("\n" + case.rng.choice(tables))
    elif kind == "missing task fields":
        lines.append('\n[[tasks]]\nname = "ghost"\n')
    else:
        keyed = [i for i, line in enumerate(lines) if "=" in line] or [0]
        index = case.rng.choice(keyed)
        key = lines[index].split("=")[0].strip() or "x"
        lines[index] = f"{key} = {case.rng.choice(['[]', '{}', 'true', '-1', '1.5', '1979-05-27'])}\n"
    path.write_text("".join(lines), "utf-8")
    case.note(f"{case.rel(path)}: {kind} (line {index + 1})")


MUTATIONS: dict[str, Callable[[Case], None]] = {
    "byte flip": byte_flip,
    "invalid utf-8": invalid_utf8,
    "deep nesting": deep_nesting,
    "huge number": huge_number,
    "path field": path_field,
    "extreme id": extreme_id,
    "empty file": empty_file,
    "json structure": json_structure,
    "toml": toml_mutation,
}


def applicable(suite: str) -> list[str]:
    names = list(MUTATIONS)
    if suite != "webbench-sample":
        names.remove("toml")
    else:
        names += ["toml", "path field", "path field", "path field"]  # TOML and its paths: most of its surface
    if suite == "code-catalog":
        names += ["path field", "path field"]  # outfile, id, dir
    return names


def make_case(seed: int, root: Path) -> Case:
    rng = random.Random(seed)
    suite = SUITES[seed % len(SUITES)]
    run = root / f"seed-{seed}"
    folder = run / "suites" / suite
    copy_suite(suite, folder)
    outside = run / "outside"
    _plant_outside(suite, folder, outside)
    case = Case(seed, suite, folder, outside, rng)
    name = rng.choice(applicable(suite))
    case.note(name)
    MUTATIONS[name](case)
    if suite == "webbench-sample" and name != "toml" and (name in ("path field", "extreme id") or rng.random() < 0.75):
        restamp(case)  # else the digest check stops nearly every task-file mutation before any parser sees it
    return case


def restamp(case: Case) -> None:
    """Record each task folder's current digest in dataset.toml, as regenerating the suite would."""
    from pytest_websearchbench.webbench.harbor import task_digest

    dataset = case.folder / "dataset.toml"
    try:
        text = dataset.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return
    for name in re.findall(r'^name = "wsb/([a-z0-9-]+)"$', text, flags=re.M):
        folder = case.folder / name
        if folder.is_dir():
            text = re.sub(
                rf'(name = "wsb/{name}"\ndigest = )"sha256:[0-9a-f]{{64}}"',
                lambda m, folder=folder: f'{m.group(1)}"{task_digest(folder)}"',
                text,
            )
    dataset.write_text(text, "utf-8")
    case.note("digests re-stamped")


def _plant_outside(suite: str, folder: Path, outside: Path) -> None:
    """Valid copies of the suite's files beside it: a loader that follows a path out finds them."""
    outside.mkdir(parents=True)
    manifest = json.loads((folder / "suite.json").read_text("utf-8"))
    shutil.copy(folder / manifest["items"], outside / "items.jsonl")  # under the name the path values use
    if suite == "webbench-sample":
        for task in folder.iterdir():
            if (task / "task.toml").is_file():
                shutil.copytree(task, outside / task.name)
    if suite == "code-catalog":
        for task in folder.iterdir():
            if task.is_dir():
                shutil.copytree(task, outside / task.name)


# ------------------------------------------------------------------------------ one run


class Reports:
    """The collection reports of one pytest run."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.items = 0
        self.internal: list[str] = []

    def pytest_collectreport(self, report) -> None:
        if report.failed:
            self.errors.append(report.longreprtext)

    def pytest_collection_modifyitems(self, items) -> None:
        self.items = len(items)

    def pytest_internalerror(self, excrepr) -> None:
        self.internal.append(str(excrepr))


@dataclass
class Result:
    case: Case
    outcome: str
    detail: str
    outside: list[str]
    seconds: float
    output: str = ""


def _names_a_file(line: str, case: Case) -> bool:
    return str(case.folder.parent.parent) in line or bool(re.search(r"[\w.-]+\.(jsonl?|toml|txt|py|ya?ml)\b", line))


def _timeout(signum, frame):
    raise TimeoutError(f"collection took more than {TIMEOUT} s")


def collect(case: Case, roots: tuple[str, ...]) -> Result:
    global _opened
    reports = Reports()
    out = io.StringIO()
    run = case.folder.parent.parent
    args = ["--co", "-q", "-p", "no:cacheprovider", f"--rootdir={run}", "-c", os.devnull, str(case.folder)]
    started = time.perf_counter()
    signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(TIMEOUT)
    _opened = []
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = pytest.main(args, plugins=[reports])
        crash = None
    except BaseException as exc:  # noqa: BLE001 — anything out of pytest is the finding
        code, crash = None, f"{type(exc).__name__}: {exc}"
    finally:
        opened, _opened = _opened, None
        signal.alarm(0)
    seconds = time.perf_counter() - started
    outside = outside_reads(opened, case.folder, roots)
    text = out.getvalue()
    if crash or reports.internal or code == pytest.ExitCode.INTERNAL_ERROR:
        detail = crash or (reports.internal[0].strip().splitlines() or ["internal error"])[-1]
        return Result(case, "traceback", detail[:300], outside, seconds, text)
    if not reports.errors:
        return Result(case, "accepted", f"{reports.items} items", outside, seconds, text)
    for error in reports.errors:
        lines = [line for line in error.strip().splitlines() if line.strip()]
        if len(lines) != 1 or "Traceback" in error:
            tail = next((line for line in reversed(lines) if line.startswith("E ")), lines[-1] if lines else "")
            return Result(case, "traceback", f"{len(lines)} lines; {tail.strip()[:300]}", outside, seconds, text)
        if not _names_a_file(lines[0], case):
            return Result(case, "unnamed", lines[0][:300], outside, seconds, text)
    first = reports.errors[0].strip()
    return Result(case, "clean", first.replace(str(run) + "/", "")[:300], outside, seconds, text)


# ------------------------------------------------------------------------------ the run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=360, help="how many seeds (default 360)")
    parser.add_argument("--start", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--only", type=int, action="append", help="run just this seed (repeatable)")
    parser.add_argument(
        "--show",
        action="append",
        default=[],
        choices=OUTCOMES,
        help="also list the seeds with this outcome (tracebacks, unnamed errors and outside reads are always listed)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print pytest's output of each run")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folders")
    args = parser.parse_args(argv)
    seeds = args.only or list(range(args.start, args.start + args.seeds))

    sys.addaudithook(_audit)
    roots = allowed_roots()
    root = Path(tempfile.mkdtemp(prefix="wsb-fuzz-"))
    results: list[Result] = []
    started = time.perf_counter()
    try:
        warm = root / "warm"  # the first run imports the plugin's modules: not part of any seed
        copy_suite("lexbench-sample-factual", warm / "suites" / "w")
        collect(Case(-1, "warm", warm / "suites" / "w", warm / "outside", random.Random(0)), roots)
        for seed in seeds:
            case = make_case(seed, root)
            result = collect(case, roots)
            results.append(result)
            if args.verbose:
                print(f"--- seed {seed} {case.suite}: {'; '.join(case.what)} → {result.outcome}\n{result.output}")
            if not args.keep:
                shutil.rmtree(case.folder.parent.parent, ignore_errors=True)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    report(results, time.perf_counter() - started, set(args.show), root if args.keep else None)
    return 1 if any(r.outcome == "traceback" or r.outside for r in results) else 0


def report(results: list[Result], seconds: float, show: set[str], kept: Path | None) -> None:
    counts = Counter(r.outcome for r in results)
    outside = [r for r in results if r.outside]
    by_suite = Counter(r.case.suite for r in results)
    print(
        f"suite_fuzz: {len(results)} mutations of {len(by_suite)} suites "
        f"({', '.join(f'{s} {n}' for s, n in sorted(by_suite.items()))}), pytest --co -q in-process, "
        f"{seconds:.0f} s"
    )
    labels = {
        "clean": "clean collection error (one line naming the file)",
        "accepted": "accepted",
        "unnamed": "one-line error naming no file",
        "traceback": "traceback",
    }
    for outcome in OUTCOMES:
        print(f"  {labels[outcome]:<52} {counts[outcome]:>4}")
    print(f"  {'read outside the suite folder (of the above)':<52} {len(outside):>4}")
    kinds = Counter((r.case.what[0], r.outcome) for r in results)
    print(
        "  by mutation: "
        + "; ".join(
            f"{name}: " + ", ".join(f"{kinds[name, o]} {o}" for o in OUTCOMES if kinds[name, o])
            for name in MUTATIONS
            if any(kinds[name, o] for o in OUTCOMES)
        )
    )
    for result in results:
        listed = result.outcome in ("traceback", "unnamed") or result.outside or result.outcome in show
        if listed:
            case = result.case
            print(
                f"\n  seed {case.seed} {case.suite} ({case.what[0]}): {'; '.join(case.what[1:])}\n    {result.outcome}: "
                f"{result.detail}"
            )
            for path in result.outside:
                print(f"    read outside: {path}")
    if kept:
        print(f"\n  folders kept under {kept}")


if __name__ == "__main__":
    sys.exit(main())
