"""Checks of the generated sample data (used by the tests and the CLI), one function per generated file.

Every file the plugin reads through a JSON Schema (``pytest_websearchbench/schemas``) is read here
through the same schema, so field types, formats and allowed values are the schema's checks: a line
that breaks it is reported with its file, line and field and left out of the checks below.  What
remains here is what a schema cannot say: the generator's stricter promises (every field written,
its id formats and languages) and agreement between the files (URLs in the corpus, grades that
match their pages, answers on their supporting pages).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pytest_websearchbench.core.dates import is_iso_date
from pytest_websearchbench.core.exceptions import SuiteError
from pytest_websearchbench.core.suites import parse_json
from pytest_websearchbench.core.suites import validate as check_schema
from pytest_websearchbench.core.text import CJK_CHAR
from pytest_websearchbench.core.urls import host_path_key, url_host
from pytest_websearchbench.sampledata.code_sample import code_sample_problems
from pytest_websearchbench.sampledata.layout import (
    CODE_ROWS,
    CORPUS,
    FACTUAL_DIR,
    FACTUAL_ITEMS,
    GRADES,
    MANIFEST,
    SCENARIO_DIR,
    SCENARIO_ITEMS,
)
from pytest_websearchbench.sampledata.lexbench import BM25, snippet, violation
from pytest_websearchbench.sampledata.pages import LANGUAGES, word_count

CORPUS_FIELDS = {"url", "title", "text", "language", "site", "published"}
# the fields the generator writes on every line (the schemas let some be left out)
ITEM_FIELDS = {
    "id",
    "query",
    "language",
    "family",
    "information_need",
    "known_pages",
    "requirements",
    "origin",
    "provenance_kind",
}
GRADE_FIELDS = {"query_id", "url", "grade", "grader", "title", "snippet", "published"}
FACTUAL_FIELDS = {"id", "question", "answer", "supporting_urls", "language"}
MANIFEST_KEYS = {"name", "edition", "family", "kind", "items", "corpus", "description"}


# --------------------------------------------------------------------------- reading


def read_rows(root: Path, rel: str, schema: str | None, problems: list[str]) -> list[dict[str, Any]]:
    """The JSON objects of the ``.jsonl`` file ``rel``, each checked against ``schema``; a line that is
    not one, or breaks the schema, is reported in ``problems`` and left out."""
    rows = []
    with open(Path(root) / rel, encoding="utf-8", newline="") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.endswith("\n") or line.endswith("\r\n"):
                problems.append(f"{rel}:{n}: line must end with a bare \\n")
            try:
                obj = parse_json(line, Path(rel), line=n)
                if schema is not None:
                    check_schema(obj, schema, Path(rel), line=n)
                elif not isinstance(obj, dict):  # the corpus has no schema
                    raise SuiteError(rel, "not a JSON object", line=n)
            except SuiteError as exc:
                problems.append(str(exc))
                continue
            rows.append(obj)
    return rows


def read_manifest(root: Path, rel: str, problems: list[str]) -> dict[str, Any] | None:
    """A ``suite.json`` checked against the suite schema; None (reported) if it breaks it."""
    try:
        manifest: dict[str, Any] = parse_json((Path(root) / rel).read_text(encoding="utf-8"), Path(rel))
        check_schema(manifest, "suite", Path(rel))
    except SuiteError as exc:
        problems.append(str(exc))
        return None
    return manifest


def load(root: Path) -> dict[str, Any]:
    """Every file the checks read, through its schema; ``problems``: what reading found."""
    root = Path(root)
    problems: list[str] = []
    return {
        "corpus": read_rows(root, CORPUS, None, problems),
        "scenario_manifest": read_manifest(root, f"{SCENARIO_DIR}/{MANIFEST}", problems),
        "factual_manifest": read_manifest(root, f"{FACTUAL_DIR}/{MANIFEST}", problems),
        "items": read_rows(root, SCENARIO_ITEMS, "lexbench-scenario", problems),
        "grades": read_rows(root, GRADES, "lexbench-grade", problems),
        "factual": read_rows(root, FACTUAL_ITEMS, "lexbench-factual", problems),
        "code_rows": read_rows(root, CODE_ROWS, "code-row", problems),
        "problems": problems,
    }


def validate(root: Path) -> list[str]:
    """Every consistency problem found under ``root`` (empty list = valid)."""
    root = Path(root)
    d = load(root)
    problems: list[str] = list(d["problems"])
    corpus = check_corpus(d["corpus"], problems)
    for dirname, kind in ((SCENARIO_DIR, "scenario"), (FACTUAL_DIR, "factual")):
        manifest = d[f"{kind}_manifest"]
        if manifest is not None:
            check_lexbench_manifest(root, dirname, kind, manifest, problems)
    items = check_scenarios(d["items"], corpus, problems)
    check_grades(d["grades"], items, corpus, problems)
    check_factual(d["factual"], corpus, problems)
    problems += code_sample_problems(d["corpus"], d["code_rows"])
    return problems


# --------------------------------------------------------------------------- sample-web/corpus.jsonl


def check_corpus(rows: list[dict[str, Any]], problems: list[str]) -> dict[str, dict[str, Any]]:
    """The corpus records by URL; reports records that are not pages the generator writes."""
    corpus: dict[str, dict[str, Any]] = {}
    for rec in rows:
        url = rec.get("url", "?")
        if set(rec) != CORPUS_FIELDS:
            problems.append(f"corpus {url}: fields {sorted(rec)}")
            continue
        if url in corpus:
            problems.append(f"corpus: duplicate url {url}")
        corpus[url] = rec
        if rec["site"] != url_host(url):
            problems.append(f"corpus {url}: site {rec['site']!r} is not the host without www.")
        if rec["language"] not in LANGUAGES:
            problems.append(f"corpus {url}: language {rec['language']!r}")
        if rec["published"] is not None and not is_iso_date(rec["published"]):
            problems.append(f"corpus {url}: published {rec['published']!r}")
        wc = word_count(rec["text"], rec["language"])
        if not 80 <= wc <= 400:
            problems.append(f"corpus {url}: {wc} words")
        if rec["language"] == "zh" and " " in rec["text"]:
            problems.append(f"corpus {url}: Chinese text contains spaces")
        if not rec["title"].strip():
            problems.append(f"corpus {url}: empty title")
    return corpus


# --------------------------------------------------------------------------- lexbench-sample*/suite.json


def check_lexbench_manifest(root: Path, dirname: str, kind: str, manifest: dict[str, Any], problems: list[str]) -> None:
    rel = f"{dirname}/{MANIFEST}"
    need = MANIFEST_KEYS | ({"grades"} if kind == "scenario" else set())
    if set(manifest) != need:
        problems.append(f"{rel}: keys {sorted(manifest)} (want {sorted(need)})")
    if manifest.get("kind") != kind or manifest.get("family") != "lexbench":
        problems.append(f"{rel}: kind/family")
    if manifest.get("name") != dirname:
        problems.append(f"{rel}: name {manifest.get('name')!r} != directory {dirname!r}")
    corpus_path = (Path(root) / dirname / str(manifest.get("corpus", ""))).resolve()
    if not corpus_path.is_file():
        problems.append(f"{rel}: corpus path {manifest.get('corpus')!r} does not resolve")


# --------------------------------------------------------------------------- lexbench-sample/items.jsonl


def title_core(title: str) -> str:
    """A page title without its ``| Brand`` / ``- Brand`` suffix, lowercased."""
    core = re.split(r" [|\-] (?=[^|\-]*$)", title)[0]
    return core.strip().lower()


def check_scenarios(
    rows: list[dict[str, Any]], corpus: dict[str, dict[str, Any]], problems: list[str]
) -> dict[str, dict[str, Any]]:
    """The scenarios by id; reports broken promises and known pages missing from the corpus."""
    titles = sorted({title_core(r["title"]) for r in corpus.values()})
    items: dict[str, dict[str, Any]] = {}
    for it in rows:
        iid = it["id"]
        if not ITEM_FIELDS <= set(it):
            problems.append(f"item {iid}: missing fields {sorted(ITEM_FIELDS - set(it))}")
            continue
        if iid in items:
            problems.append(f"item {iid}: duplicate id")
        items[iid] = it
        if not re.fullmatch(r"q\d{3}", iid):
            problems.append(f"item {iid}: id format")
        if it["language"] not in LANGUAGES:
            problems.append(f"item {iid}: language")
        if word_count(it["query"], it["language"]) > 13:
            problems.append(f"item {iid}: query too long")
        q = it["query"].lower()
        for t in titles:
            long_enough = len(t.split()) >= 2 or len(CJK_CHAR.findall(t)) >= 4
            if t and (t == q or (long_enough and t in q)):
                problems.append(f"item {iid}: query quotes the title {t!r}")
        for k in ("sites", "content_terms"):  # the schema allows an empty list; the generator never writes one
            if k in it["requirements"] and not it["requirements"][k]:
                problems.append(f"item {iid}: requirements.{k} must be a non-empty list")
        for u in it["known_pages"]:
            if u not in corpus:
                problems.append(f"item {iid}: known page {u} not in corpus")
        if not it["origin"].startswith("synthetic:") or it["provenance_kind"] != "authored":
            problems.append(f"item {iid}: origin/provenance_kind")
    return items


# --------------------------------------------------------------------------- lexbench-sample/grades.jsonl


def check_grades(
    rows: list[dict[str, Any]], items: dict[str, dict[str, Any]], corpus: dict[str, dict[str, Any]], problems: list[str]
) -> None:
    """Each grade matches its page and scenario; every scenario has a grade-3 page, its known pages among them."""
    graded: dict[str, dict[str, int]] = {iid: {} for iid in items}
    seen: set[tuple[str, str]] = set()
    unknown: Counter[str] = Counter()
    for g in rows:
        if set(g) != GRADE_FIELDS:  # the schema allows an edition's receipts too
            problems.append(f"grade {g['query_id']} {g['url']}: fields {sorted(g)}")
            continue
        qid, url = g["query_id"], g["url"]
        if qid not in items:
            unknown[qid] += 1
            continue
        rec = corpus.get(url)
        if rec is None:
            problems.append(f"grade {qid}: url {url} not in corpus")
            continue
        key = (qid, host_path_key(url))
        if key in seen:
            problems.append(f"grade {qid}: normalised url {key[1]} graded twice")
        seen.add(key)
        if not g["grader"].startswith("generator:"):
            problems.append(f"grade {qid} {url}: grader {g['grader']!r}")
        if g["title"] != rec["title"] or g["published"] != rec["published"]:
            problems.append(f"grade {qid} {url}: title/published differ from the corpus")
        if g["snippet"] != snippet(rec["text"]) or len(g["snippet"]) > 200:
            problems.append(f"grade {qid} {url}: snippet is not the page's first 200 characters")
        if g["grade"] > 0 and violation(items[qid]["requirements"], SimpleNamespace(**rec)):
            problems.append(f"grade {qid} {url}: graded {g['grade']} but violates the requirements")
        graded[qid][url] = g["grade"]
    # once per id: a scenario left out for breaking its schema would otherwise flood the report
    problems += [f"grade: unknown query_id {qid} ({n} lines)" for qid, n in sorted(unknown.items())]
    for iid, it in items.items():
        if not any(v == 3 for v in graded[iid].values()):
            problems.append(f"item {iid}: no page graded 3")
        for u in it["known_pages"]:
            if graded[iid].get(u) != 3:
                problems.append(f"item {iid}: known page {u} is not graded 3")


# --------------------------------------------------------------------------- lexbench-sample-factual/items.jsonl


def check_factual(rows: list[dict[str, Any]], corpus: dict[str, dict[str, Any]], problems: list[str]) -> None:
    """Each question's answer stands on every one of its supporting pages."""
    fids: set[str] = set()
    for f in rows:
        fid = f["id"]
        if not FACTUAL_FIELDS <= set(f):
            problems.append(f"factual {fid}: missing fields {sorted(FACTUAL_FIELDS - set(f))}")
            continue
        if fid in fids:
            problems.append(f"factual {fid}: duplicate id")
        fids.add(fid)
        if not re.fullmatch(r"f\d{3}", fid):
            problems.append(f"factual {fid}: id format")
        for u in f["supporting_urls"]:
            rec = corpus.get(u)
            if rec is None:
                problems.append(f"factual {fid}: supporting url {u} not in corpus")
            elif f["answer"] not in rec["text"]:
                problems.append(f"factual {fid}: answer {f['answer']!r} not in {u}")


# --------------------------------------------------------------------------- a retrieval report


def bm25_report(root: Path, k: int = 10) -> dict[str, dict[str, Any]]:
    """Per scenario: how much of a plain BM25 top-k is graded, and whether it holds an eligible grade-3 page.

    URL variants count as graded when their normalised URL is.
    """
    d = load(Path(root))
    pages = [SimpleNamespace(**r) for r in d["corpus"]]
    index = BM25(pages)  # type: ignore[arg-type]  # corpus rows stand in for PageSpecs: BM25 reads title and text
    grades: dict[str, dict[str, int]] = {}
    for g in d["grades"]:
        grades.setdefault(g["query_id"], {})[host_path_key(g["url"])] = g["grade"]
    out = {}
    for it in d["items"]:
        got = grades.get(it["id"], {})
        top = index.search(it["query"], k)
        keys = [host_path_key(p.url) for p in top]
        out[it["id"]] = {
            "judged": sum(1 for u in keys if u in got) / max(1, len(keys)),
            "hit3": any(got.get(u) == 3 for u in keys),
            "distinctive": index.distinctive(it["query"]),
        }
    return out
