"""The bundled LexBench scenario suite copied to any number of items, for replay at scale.

Copy ``c`` of item ``q001`` is ``q001-c<c>``: its grade lines and its recorded ``local``
cassette are copied under the new id (the request in the cassette names the query, not the
id, so it replays as is). Items cycle through the 55 originals, so 550 items are ten copies.

    python benchmarks/scaled_suite.py DEST --items 55 550 2750

writes ``DEST/suites/lexbench-scale-<n>/`` and ``DEST/cassettes/lexbench-scale-<n>/local/``;
run one with ``pytest --suite DEST/suites/lexbench-scale-<n> --wsb-cassette-dir=DEST/cassettes
--wsb-record-mode=none``.
"""

from __future__ import annotations

import argparse
import json
import shutil
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCE = "lexbench-sample"
PROVIDER = "local"


def suite_name(items: int) -> str:
    return f"lexbench-scale-{items}"


def make_scaled_suite(dest: Path, items: int, repo: Path = REPO) -> Path:
    """Write the suite of ``items`` items (and its cassettes) under ``dest``; return the suite folder."""
    source = repo / "suites" / SOURCE
    records = [json.loads(line) for line in (source / "items.jsonl").read_text("utf-8").splitlines() if line.strip()]
    grade_lines: dict[str, list[dict]] = defaultdict(list)
    for line in (source / "grades.jsonl").read_text("utf-8").splitlines():
        if line.strip():
            grade = json.loads(line)
            grade_lines[grade["query_id"]].append(grade)
    name = suite_name(items)
    folder = dest / "suites" / name
    cassettes = dest / "cassettes" / name / PROVIDER
    folder.mkdir(parents=True, exist_ok=True)
    cassettes.mkdir(parents=True, exist_ok=True)
    # the manifest names the sample web beside the suite; the local provider digests the same bytes
    web = dest / "suites" / "sample-web"
    if not web.exists():
        shutil.copytree(repo / "suites" / "sample-web", web)
    manifest = json.loads((source / "suite.json").read_text("utf-8"))
    manifest.update(name=name, description=f"{SOURCE} copied to {items} items (benchmarks/scaled_suite.py)")
    (folder / "suite.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", "utf-8")
    with (
        open(folder / "items.jsonl", "w", encoding="utf-8") as item_file,
        open(folder / "grades.jsonl", "w", encoding="utf-8") as grade_file,
    ):
        for n in range(items):
            original = records[n % len(records)]
            new_id = f"{original['id']}-c{n // len(records)}"
            item_file.write(json.dumps({**original, "id": new_id}, sort_keys=True, ensure_ascii=False) + "\n")
            for grade in grade_lines[original["id"]]:
                grade_file.write(json.dumps({**grade, "query_id": new_id}, sort_keys=True, ensure_ascii=False) + "\n")
            shutil.copyfile(
                repo / "cassettes" / SOURCE / PROVIDER / f"{original['id']}.yaml", cassettes / f"{new_id}.yaml"
            )
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--items", type=int, nargs="+", default=[55, 550, 2750])
    args = parser.parse_args()
    for items in args.items:
        print(make_scaled_suite(args.dest, items))


if __name__ == "__main__":
    main()
