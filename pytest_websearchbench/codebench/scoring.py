"""Scoring of code tickets: pure functions of (ticket, raw results), identical in live and replay runs.

* retrieval probe — the ticket passes when every needle appears verbatim in a title, snippet
  or fetched text that came back (the provider surfaced the answer);
* agent — ``grade_code_answer`` on the final answer against what the agent saw (search hits,
  then fetched pages, failed fetches included); an episode that ended in a run error fails;
* self-check — the gold passes and the starter fails, grounding off.

Every verdict lists the needles with where they came from (``required``, ``query_forbidden``
or ``derived``) in ``Score.results`` and, for failures, in the message.
"""

from __future__ import annotations

from typing import Any

from pytest_websearchbench.codebench.grader import CodeVerdict, grade_code_answer, leaked_needles
from pytest_websearchbench.codebench.grader_strict import grade_code_answer_strict
from pytest_websearchbench.codebench.tasks import CodeTask
from pytest_websearchbench.core.family import RawResults, Score

_MAX_CODE_LINES = 40
#: the harness's verdict of an item whose episode failed (the model or its transport)
RUN_ERROR = "RUN_ERROR"
#: an agent run with the harness's settings (``profile`` in the raw results)
FAITHFUL = "faithful"


def seen_texts(raw: RawResults) -> list[tuple[str, str]]:
    """(where, text) of everything the agent (or probe) was shown, queries excluded."""
    out = []
    for hit in raw.hits:
        out += [(f"title of {hit.url}", hit.title), (f"snippet of {hit.url}", hit.snippet)]
    for page in raw.pages:
        out += [(f"title of fetched {page.url}", page.title), (f"fetched {page.url}", page.text)]
    return out


def query_leaks(queries: list[str], task: CodeTask) -> list[dict[str, Any]]:
    """Leak diagnostic: each query that contains a needle (case-insensitive)."""
    out = []
    for query in queries:
        found = leaked_needles(query, task.needle_texts)
        if found:
            out.append({"query": query, "needles": found})
    return out


def score_retrieval(task: CodeTask, raw: RawResults, k: int) -> Score:
    texts = seen_texts(raw)
    rows: list[dict[str, Any]] = []
    for needle in task.needles:
        where = next((w for w, text in texts if needle.text in text), "")
        rows.append({"needle": needle.text, "source": needle.source, "found": bool(where), "where": where})
    found = sum(r["found"] for r in rows)
    leaks = query_leaks(raw.queries, task)
    metrics = {
        "pass": float(found == len(rows)),
        "needles": float(len(rows)),
        "needles_found": float(found),
        "needle_recall": found / len(rows),
        "searches": float(raw.extra.get("searches", len(raw.queries))),
        "fetches": float(raw.extra.get("fetches", len(raw.pages))),
        "leaky_queries": float(len(leaks)),
    }
    if found == len(rows):
        return Score(True, metrics, "", rows + _leak_rows(leaks))
    board = raw.extra.get("board", "search")
    lines = [
        f"{len(rows) - found} of {len(rows)} needles not in what the provider returned "
        f"(query: the ticket text; board {board}; k={k}; {len(raw.pages)} pages fetched):"
    ]
    lines += _needle_table(rows)
    lines.append("results:" if raw.hits else "results: (none)")
    lines += [f"  {h.rank:>2}. {h.url}  {h.title[:70]!r}" for h in raw.hits]
    lines += _leak_lines(leaks)
    return Score(False, metrics, "\n".join(lines), rows + _leak_rows(leaks))


def seen_urls(raw: RawResults) -> list[str]:
    """Every URL the agent was shown: search hits, then fetched pages (a failed fetch's URL too)."""
    return [h.url for h in raw.hits] + [p.url for p in raw.pages]


def judge_output(verdict: CodeVerdict) -> str:
    """The harness's one-line judge output: ``NEEDLES_OK``, ``NEEDLES_FAIL <notes>``, "" for an empty answer."""
    if verdict.passed:
        return "NEEDLES_OK"
    if not verdict.code.strip():
        return ""
    return "NEEDLES_FAIL " + "; ".join(verdict.notes)


def score_agent(task: CodeTask, raw: RawResults, *, strict: bool = False) -> Score:
    """The judge's verdict on the final answer; with ``strict`` also the stricter reading's, as
    the ``strict_pass`` diagnostic (it never changes the verdict)."""
    extra = raw.extra
    leaks = query_leaks(raw.queries, task)
    profile = extra.get("profile", "")
    common = {
        "searches": float(extra.get("searches", 0)),
        "fetches": float(extra.get("fetches", 0)),
        "turns": float(extra.get("turns", 0)),
        "tokens": float(extra.get("prompt_tokens", 0) + extra.get("completion_tokens", 0)),
        "leaky_queries": float(len(leaks)),
        "comparable": float(profile == FAITHFUL),
    }
    if extra.get("run_error"):
        # the harness's RUN_ERROR: a failed item, counted in the pass rate
        judge = {"passed": False, "compiled": False, "output": RUN_ERROR, "notes": [extra["run_error"]]}
        metrics = {
            "pass": 0.0,
            "compiled": 0.0,
            "needles": float(len(task.needles)),
            "needles_found": 0.0,
            "needle_recall": 0.0,
            "run_error": 1.0,
            **common,
            **({"strict_pass": 0.0} if strict else {}),
        }
        message = (
            f"run error ({RUN_ERROR}, counted as failed): {extra['run_error']}\n"
            f"episode: turns {extra.get('turns', 0)}, searches {extra.get('searches', 0)}, "
            f"fetches {extra.get('fetches', 0)}"
        )
        return Score(False, metrics, message, [{"judge": judge, "source": "", "profile": profile}])
    answer = extra.get("answer", "")
    verdict = grade_code_answer(
        answer,
        task.needle_texts,
        seen_urls=seen_urls(raw),
        seen_text=[text for _, text in seen_texts(raw)],
        cite_urls=task.cite_urls,
    )
    judge = {
        "passed": verdict.passed,
        "compiled": verdict.compiled,
        "output": judge_output(verdict),
        "notes": list(verdict.notes),
    }
    rows = _verdict_rows(task, verdict)
    good = sum(r["ok"] for r in rows)
    metrics = {
        "pass": float(verdict.passed),
        "compiled": float(verdict.compiled),
        "needles": float(len(rows)),
        "needles_found": float(good),
        "needle_recall": good / len(rows) if rows else 0.0,
        "run_error": 0.0,
        **common,
    }
    if strict:
        strict_verdict = grade_code_answer_strict(
            answer,
            task.needle_texts,
            seen_urls=seen_urls(raw),
            seen_text=[text for _, text in seen_texts(raw)],
            cite_urls=task.cite_urls,
        )
        metrics["strict_pass"] = float(strict_verdict.passed)
        judge["strict_notes"] = list(strict_verdict.notes)
    results = [{"judge": judge, "source": verdict.code, "profile": profile}, *rows, *_leak_rows(leaks)]
    if verdict.passed:
        return Score(True, metrics, "", results)
    budgets = extra.get("budgets") or task.budgets.to_dict()
    lines = ["answer fails: " + ", ".join(verdict.notes)]
    lines += _needle_table(rows)
    lines.append(
        f"episode: {extra.get('stopped', '?')}; turns {extra.get('turns', 0)}/{budgets['turns']}, "
        f"searches {extra.get('searches', 0)}/{budgets['searches']}, "
        f"fetches {extra.get('fetches', 0)}/{budgets['fetches']}; cite_urls={task.cite_urls}"
    )
    lines += _leak_lines(leaks)
    lines += _code_excerpt(verdict.code)
    return Score(False, metrics, "\n".join(lines), results)


def score_selftest(task: CodeTask) -> Score:
    gold = grade_code_answer(task.gold_code, task.needle_texts, seen_urls=None, seen_text=None, cite_urls=False)
    starter = grade_code_answer(task.starter_code, task.needle_texts, seen_urls=None, seen_text=None, cite_urls=False)
    ticket_leaks = leaked_needles(task.ticket, task.needle_texts)
    rows = [
        {
            "needle": n.text,
            "source": n.source,
            "in_gold": n.text in gold.code,
            "in_starter": n.text in starter.code,
            "in_ticket": n.text in ticket_leaks,
        }
        for n in task.needles
    ]
    metrics = {
        "pass": float(gold.passed and not starter.passed),
        "gold_pass": float(gold.passed),
        "starter_fail": float(not starter.passed),
        "needles": float(len(rows)),
        "ticket_leaks": float(len(ticket_leaks)),
    }
    problems = []
    if not gold.passed:
        problems.append("the gold code fails: " + ", ".join(gold.notes))
    if starter.passed:
        problems.append("the starter code passes: it already contains every needle")
    if not problems:
        return Score(True, metrics, "", rows)
    lines = [f"self-check of {task.where or task.task_id}: " + "; ".join(problems)]
    lines += [
        f"  {r['needle']!r:<40} {r['source']:<16} gold={'yes' if r['in_gold'] else 'no':<4}"
        f"starter={'yes' if r['in_starter'] else 'no'}"
        for r in rows
    ]
    if ticket_leaks:
        lines.append("note: the ticket names " + ", ".join(map(repr, ticket_leaks)))
    return Score(False, metrics, "\n".join(lines), rows)


def _verdict_rows(task: CodeTask, verdict: CodeVerdict) -> list[dict[str, Any]]:
    checks = {c.needle: c for c in verdict.checks}
    notes = set(verdict.notes)
    rows = []
    for needle in task.needles:
        check = checks.get(needle.text)
        bad = [n.split(":", 1)[0] for n in notes if n.split(":", 1)[-1] == needle.text and ":" in n]
        rows.append(
            {
                "needle": needle.text,
                "source": needle.source,
                "present": bool(check and check.present),
                "sources": list(check.sources) if check else [],
                "grounded_by": check.grounded_by if check else "",
                "ok": bool(check) and verdict.compiled and not bad,
                "problem": bad[0] if bad else "",
            }
        )
    return rows


def _needle_table(rows: list[dict[str, Any]]) -> list[str]:
    lines = ["needles:"]
    for row in rows:
        if "found" in row:
            state = f"found in {row['where']}" if row["found"] else "NOT FOUND"
        elif row["ok"]:
            state = f"ok ({row['grounded_by'] or 'grounding off'})"
        else:
            cited = f" (cited {row['sources'][0]})" if row["sources"] else ""
            state = (row["problem"] or "not checked").upper() + cited
        lines.append(f"  {row['needle']!r:<40} {row['source']:<16} {state}")
    return lines


def _leak_rows(leaks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"leaky_query": leak["query"], "needles": leak["needles"]} for leak in leaks]


def _leak_lines(leaks: list[dict[str, Any]]) -> list[str]:
    return [f"leak: query {leak['query'][:80]!r} contains {', '.join(map(repr, leak['needles']))}" for leak in leaks]


def _code_excerpt(code: str) -> list[str]:
    if not code.strip():
        return ["final code: (empty)"]
    lines = code.splitlines()
    shown = [f"  | {line}" for line in lines[:_MAX_CODE_LINES]]
    more = [f"  | … {len(lines) - _MAX_CODE_LINES} more lines"] if len(lines) > _MAX_CODE_LINES else []
    return ["final code:"] + shown + more
