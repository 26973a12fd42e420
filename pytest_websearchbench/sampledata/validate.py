"""Consistency checks for generated sample data (used by the tests and the CLI)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pytest_websearchbench.core.text import CJK_CHAR
from pytest_websearchbench.core.urls import host_path_key, url_host
from pytest_websearchbench.engine.index import is_iso_date

CORPUS_FIELDS = {"url", "title", "text", "language", "site", "published"}
ITEM_FIELDS = {"id", "query", "language", "family", "information_need", "known_pages", "requirements",
               "origin", "provenance_kind"}
GRADE_FIELDS = {"query_id", "url", "grade", "grader", "title", "snippet", "published"}
FACTUAL_FIELDS = {"id", "question", "answer", "supporting_urls", "language"}
REQUIREMENT_KEYS = {"sites", "after", "before", "content_terms"}
FAMILIES = {"general", "named-site", "vertical"}
MANIFEST_KEYS = {"name", "edition", "family", "kind", "items", "corpus", "description"}


def read_jsonl(path: Path, problems: list[str] | None = None) -> list[dict[str, Any]]:
    rows = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.endswith("\n") or line.endswith("\r\n"):
                if problems is not None:
                    problems.append(f"{path.name}:{n}: line must end with a bare \\n")
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                if problems is not None:
                    problems.append(f"{path.name}:{n}: invalid JSON ({exc})")
                continue
            if not isinstance(obj, dict):
                if problems is not None:
                    problems.append(f"{path.name}:{n}: not a JSON object")
                continue
            rows.append(obj)
    return rows


def title_core(title: str) -> str:
    """A page title without its ``| Brand`` / ``- Brand`` suffix, lowercased."""
    core = re.split(r" [|\-] (?=[^|\-]*$)", title)[0]
    return core.strip().lower()


def load(root: Path) -> dict[str, Any]:
    from pytest_websearchbench.sampledata import CORPUS, FACTUAL_DIR, SCENARIO_DIR

    root = Path(root)
    problems: list[str] = []
    data = {
        "corpus": read_jsonl(root / CORPUS, problems),
        "scenario_manifest": json.loads((root / SCENARIO_DIR / "suite.json").read_text(encoding="utf-8")),
        "factual_manifest": json.loads((root / FACTUAL_DIR / "suite.json").read_text(encoding="utf-8")),
        "items": read_jsonl(root / SCENARIO_DIR / "items.jsonl", problems),
        "grades": read_jsonl(root / SCENARIO_DIR / "grades.jsonl", problems),
        "factual": read_jsonl(root / FACTUAL_DIR / "items.jsonl", problems),
        "problems": problems,
    }
    return data


def validate(root: Path) -> list[str]:
    """Every consistency problem found under ``root`` (empty list = valid)."""
    from pytest_websearchbench.sampledata import FACTUAL_DIR, SCENARIO_DIR
    from pytest_websearchbench.sampledata.lexbench import snippet, violation
    from pytest_websearchbench.sampledata.web import LANGUAGES, word_count

    root = Path(root)
    d = load(root)
    problems: list[str] = list(d["problems"])
    corpus: dict[str, dict[str, Any]] = {}
    for rec in d["corpus"]:
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

    for key, manifest, kind, dirname in (("scenario_manifest", d["scenario_manifest"], "scenario", SCENARIO_DIR),
                                         ("factual_manifest", d["factual_manifest"], "factual", FACTUAL_DIR)):
        need = MANIFEST_KEYS | ({"grades"} if kind == "scenario" else set())
        if set(manifest) != need:
            problems.append(f"{key}: keys {sorted(manifest)} (want {sorted(need)})")
        if manifest.get("kind") != kind or manifest.get("family") != "lexbench":
            problems.append(f"{key}: kind/family")
        if manifest.get("name") != dirname:
            problems.append(f"{key}: name {manifest.get('name')!r} != directory {dirname!r}")
        corpus_path = (root / dirname / str(manifest.get("corpus", ""))).resolve()
        if not corpus_path.is_file():
            problems.append(f"{key}: corpus path {manifest.get('corpus')!r} does not resolve")

    titles = sorted({title_core(r["title"]) for r in corpus.values()})
    items: dict[str, dict[str, Any]] = {}
    for it in d["items"]:
        iid = it.get("id", "?")
        if set(it) != ITEM_FIELDS:
            problems.append(f"item {iid}: fields {sorted(it)}")
            continue
        if iid in items:
            problems.append(f"item {iid}: duplicate id")
        items[iid] = it
        if not re.fullmatch(r"q\d{3}", iid):
            problems.append(f"item {iid}: id format")
        if it["language"] not in LANGUAGES:
            problems.append(f"item {iid}: language")
        if it["family"] not in FAMILIES:
            problems.append(f"item {iid}: family {it['family']!r}")
        if word_count(it["query"], it["language"]) > 13:
            problems.append(f"item {iid}: query too long")
        q = it["query"].lower()
        for t in titles:
            long_enough = len(t.split()) >= 2 or len(CJK_CHAR.findall(t)) >= 4
            if t and (t == q or (long_enough and t in q)):
                problems.append(f"item {iid}: query quotes the title {t!r}")
        req = it["requirements"]
        if not isinstance(req, dict) or not set(req) <= REQUIREMENT_KEYS:
            problems.append(f"item {iid}: requirements {req!r}")
            continue
        for k in ("after", "before"):
            if k in req and not is_iso_date(req[k]):
                problems.append(f"item {iid}: requirements.{k}")
        for k in ("sites", "content_terms"):
            if k in req and (not isinstance(req[k], list) or not req[k]):
                problems.append(f"item {iid}: requirements.{k} must be a non-empty list")
        for u in it["known_pages"]:
            if u not in corpus:
                problems.append(f"item {iid}: known page {u} not in corpus")
        if not it["origin"].startswith("synthetic:") or it["provenance_kind"] != "authored":
            problems.append(f"item {iid}: origin/provenance_kind")

    graded: dict[str, dict[str, int]] = {iid: {} for iid in items}
    seen: set[tuple[str, str]] = set()
    for g in d["grades"]:
        if set(g) != GRADE_FIELDS:
            problems.append(f"grade {g.get('query_id')} {g.get('url')}: fields {sorted(g)}")
            continue
        qid, url = g["query_id"], g["url"]
        if qid not in items:
            problems.append(f"grade: unknown query_id {qid}")
            continue
        rec = corpus.get(url)
        if rec is None:
            problems.append(f"grade {qid}: url {url} not in corpus")
            continue
        key = (qid, host_path_key(url))
        if key in seen:
            problems.append(f"grade {qid}: normalised url {key[1]} graded twice")
        seen.add(key)
        if not isinstance(g["grade"], int) or isinstance(g["grade"], bool) or not 0 <= g["grade"] <= 3:
            problems.append(f"grade {qid} {url}: grade {g['grade']!r}")
        if not str(g["grader"]).startswith("generator:"):
            problems.append(f"grade {qid} {url}: grader {g['grader']!r}")
        if g["title"] != rec["title"] or g["published"] != rec["published"]:
            problems.append(f"grade {qid} {url}: title/published differ from the corpus")
        if g["snippet"] != snippet(rec["text"]) or len(g["snippet"]) > 200:
            problems.append(f"grade {qid} {url}: snippet is not the page's first 200 characters")
        req = items[qid]["requirements"]
        if g["grade"] > 0 and violation(req, SimpleNamespace(**rec)):
            problems.append(f"grade {qid} {url}: graded {g['grade']} but violates the requirements")
        graded[qid][url] = g["grade"]
    for iid, it in items.items():
        if not any(v == 3 for v in graded[iid].values()):
            problems.append(f"item {iid}: no page graded 3")
        for u in it["known_pages"]:
            if graded[iid].get(u) != 3:
                problems.append(f"item {iid}: known page {u} is not graded 3")

    fids: set[str] = set()
    for f in d["factual"]:
        fid = f.get("id", "?")
        if set(f) != FACTUAL_FIELDS:
            problems.append(f"factual {fid}: fields {sorted(f)}")
            continue
        if fid in fids:
            problems.append(f"factual {fid}: duplicate id")
        fids.add(fid)
        if not re.fullmatch(r"f\d{3}", fid):
            problems.append(f"factual {fid}: id format")
        if not f["answer"] or not f["supporting_urls"]:
            problems.append(f"factual {fid}: empty answer or supporting_urls")
        for u in f["supporting_urls"]:
            rec = corpus.get(u)
            if rec is None:
                problems.append(f"factual {fid}: supporting url {u} not in corpus")
            elif f["answer"] not in rec["text"]:
                problems.append(f"factual {fid}: answer {f['answer']!r} not in {u}")
    problems += _code_sample_problems(root, d["corpus"])
    return problems


def _code_sample_problems(root: Path, corpus: list[dict[str, Any]]) -> list[str]:
    from pytest_websearchbench.sampledata import CODE_DIR
    from pytest_websearchbench.sampledata.code_sample import code_sample_problems

    problems: list[str] = []
    rows = read_jsonl(root / CODE_DIR / "eval.jsonl", problems)
    return problems + code_sample_problems(corpus, rows)


def bm25_report(root: Path, k: int = 10) -> dict[str, dict[str, Any]]:
    """Per scenario: how much of a plain BM25 top-k is graded, and whether it holds an eligible grade-3 page.

    URL variants count as graded when their normalised URL is.
    """
    from pytest_websearchbench.sampledata.lexbench import BM25

    d = load(Path(root))
    pages = [SimpleNamespace(**r) for r in d["corpus"]]
    index = BM25(pages)  # type: ignore[arg-type]
    grades: dict[str, dict[str, int]] = {}
    for g in d["grades"]:
        grades.setdefault(g["query_id"], {})[host_path_key(g["url"])] = g["grade"]
    out = {}
    for it in d["items"]:
        got = grades.get(it["id"], {})
        top = index.search(it["query"], k)
        keys = [host_path_key(p.url) for p in top]
        out[it["id"]] = {"judged": sum(1 for u in keys if u in got) / max(1, len(keys)),
                         "hit3": any(got.get(u) == 3 for u in keys),
                         "distinctive": index.distinctive(it["query"])}
    return out
