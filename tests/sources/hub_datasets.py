"""Clean-room datasets in each family's published shape (built from the bundled sample suites), served by
the loopback hub of the remote-suite tests (the `hub` fixture, a plugin of tests/conftest.py): no test
reaches the internet."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from hub_server import LoopbackHub

from conftest import REPO

CODE_REPO = "openbenchmarks/OB-Code-Websearch"
LEX_REPO = "Lexmount/LexBench-Web-Search"
FACTUAL_REPO = "Lexmount/LexBench-SimpleQA-Verified"
GATED_REPO = "acme/gated-tickets"
#: the published code rows' columns (task_id, vendor, ticket, starter_code, gold_code)
CODE_COLUMNS = ("task_id", "vendor", "ticket", "starter_code", "gold_code")
#: the scenario columns of the loopback LexBench dataset: other names than the family's, as a real
#: edition may use (its dataset card says which), read through a manifest's "fields"
LEX_COLUMNS = {"id": "scenario_id", "family": "search_family", "language": "lang"}
GATED_TOKEN = "hf_loopback_gated_token_7f3a9c"


def jsonl(rows: list[dict]) -> bytes:
    return "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in rows).encode()


def code_rows(count: int) -> list[dict]:
    rows = [json.loads(line) for line in (REPO / "suites" / "code-sample" / "eval.jsonl").read_text().splitlines()]
    return [{key: row[key] for key in CODE_COLUMNS} for row in rows[:count]]


def lex_rows(count: int) -> list[dict]:
    rows = [json.loads(line) for line in (REPO / "suites" / "lexbench-sample" / "items.jsonl").read_text().splitlines()]
    return [{LEX_COLUMNS.get(k, k): v for k, v in row.items()} for row in rows[:count]]


def factual_rows(count: int) -> list[dict]:
    path = REPO / "suites" / "lexbench-sample-factual" / "items.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()[:count]]


@dataclass
class Datasets:
    server: LoopbackHub
    code_v1: str  # the commit tag v1 names: three code rows
    code_v2: str  # main's head: the same file with a fourth row
    lex: str
    factual: str
    gated: str


@pytest.fixture
def hub():
    """The loopback hub with a code dataset (tag v1, then a newer main), LexBench scenario and factual
    datasets, and a gated dataset; the code rows are a large (LFS) file, served through the CDN origin."""
    server = LoopbackHub()
    code_v1 = server.commit(
        CODE_REPO, {"data/eval.jsonl": jsonl(code_rows(3)), "README.md": b"# tickets\n"}, lfs=("data/eval.jsonl",)
    )
    server.tag(CODE_REPO, "v1", code_v1)
    code_v2 = server.commit(CODE_REPO, {"data/eval.jsonl": jsonl(code_rows(4))})
    lex = server.commit(LEX_REPO, {"data/scenarios.jsonl": jsonl(lex_rows(5))})
    factual = server.commit(FACTUAL_REPO, {"data/test.jsonl": jsonl(factual_rows(3))})
    gated = server.commit(GATED_REPO, {"data/eval.jsonl": jsonl(code_rows(2))}, lfs=("data/eval.jsonl",))
    server.gate(GATED_REPO, GATED_TOKEN)
    server.start()
    yield Datasets(server, code_v1, code_v2, lex, factual, gated)
    server.stop()
