"""``--wsb-inspect-log=PATH``: the run as Inspect eval logs (https://inspect.aisi.org.uk), so Inspect's viewer
(``inspect view``), its log API (``read_eval_log``, ``samples_df``) and what reads its logs open a run as they
open an Inspect eval's.

An Inspect log holds one task run by one model, so a run gives one log per suite × variant, written beside
PATH as ``<stem>_<suite>_<variant><suffix>`` (``log_file``): the suffix is the format (``.eval``, Inspect's
default, or ``.json``), and a stem that is a timestamp makes the names Inspect's own ``<time>_<task>_<id>``,
which ``inspect view`` needs of a ``.json`` log to list it. In each log:

- the task is the suite (its edition the task's version), the model the variant: a provider, or an agent,
  ``<variant>/<model>`` when a model answered (the model its answers named, else the one asked for);
- one sample per item (its id the case's): the input the case puts (a query, a ticket, a brief) and its target
  (``BenchmarkFamily.case_sample``, carried on the item's record), the messages (a model's turns with their
  reasoning, text and tool calls, each call's result as a tool message; a WebBench agent without a model, each
  browser action and the page it got back; a provider, each search with its hits and each fetch with its page,
  as tool calls and results), the output (the final answer; a provider's top k as a list), one score per metric
  (an errored item, which has no score, the value the run's means count it as, with the error as the sample's),
  and in its metadata the case, variant, outcome, error and what else the results file says of the item;
- the results: each metric's mean over the suite's declared population and its 95 % interval, and the
  variant's figures as the results file's summary gives them (passed, errors, latency, cost, the baseline's
  verdict) in their metadata; the log's status is ``success``, or ``cancelled`` for an incomplete run.

Pure but for ``write_log``: the logs are built with inspect-ai's own classes (imported when called: it is an
optional extra) from the suites' figures, which hold their records; ``write_log`` writes one through
``inspect_ai.log.write_eval_log`` (never by hand: the format is versioned but not frozen) into a temp file the
atomic writer renames into place.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_websearchbench.core.options import AGENT_SERVED
from pytest_websearchbench.reporting.figures import SuiteFigures, VariantFigures
from pytest_websearchbench.reporting.results import ItemRecord

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog, EvalSample
    from inspect_ai.model import ChatMessage, ChatMessageAssistant, ModelUsage

#: the plan's name: what ran the samples
PLAN = "pytest-websearchbench"

_UNSAFE = re.compile(r"[^\w.@+-]+")


def log_file(path: Path, suite: str, variant: str) -> Path:
    """The file of a suite's and variant's log: beside ``path``, ``<stem>_<suite>_<variant><suffix>`` (a name's
    characters that are no letter, digit or ``.@+-`` become ``-``)."""
    return path.with_name(f"{path.stem}_{_safe(suite)}_{_safe(variant)}{path.suffix}")


def is_log_file(path: Path, name: str) -> bool:
    """Whether ``name`` is one of ``log_file``'s names for ``path`` (a killed run's temp files are removed by it)."""
    return name.startswith(f"{path.stem}_") and name.endswith(path.suffix)


def _safe(name: str) -> str:
    return _UNSAFE.sub("-", name) or "-"


@dataclass(frozen=True)
class InspectLog:
    suite: str
    variant: str
    log: EvalLog


def eval_logs(
    figures: Iterable[SuiteFigures],
    *,
    run_id: str,
    started: float,
    stopped: float,
    complete: bool,
    plugin_version: str,
) -> list[InspectLog]:
    """One log per suite and variant of the run's figures (``started``/``stopped``: the run's, seconds since the
    epoch; ``complete``: every declared item has a result)."""
    return [
        InspectLog(
            suite.name,
            variant.name,
            _log(suite, variant, run_id, started, stopped, complete, plugin_version),
        )
        for suite in figures
        for variant in suite.variants
    ]


def scrubbed(log: EvalLog, scrub: Callable[[Any], Any]) -> EvalLog:
    """``log`` with ``scrub`` applied to every string of it (keys never reach a log)."""
    from inspect_ai.log import EvalLog

    data = log.model_dump(mode="json")
    clean = scrub(data)
    return log if clean == data else EvalLog.model_validate(clean)


def write_log(path: Path, log: EvalLog) -> None:
    """Write ``log`` to ``path`` in the format its suffix names, whole or not at all."""
    from inspect_ai.log import write_eval_log

    from pytest_websearchbench.core.atomic import atomic_path

    with atomic_path(path) as tmp:
        write_eval_log(log, tmp, format="json" if path.suffix == ".json" else "eval")


# ---------------------------------------------------------------------------------------------- the log


def _log(
    suite: SuiteFigures,
    variant: VariantFigures,
    run_id: str,
    started: float,
    stopped: float,
    complete: bool,
    plugin_version: str,
) -> EvalLog:
    import inspect_ai
    from inspect_ai.log import (
        EvalConfig,
        EvalDataset,
        EvalLog,
        EvalMetric,
        EvalPlan,
        EvalPlanStep,
        EvalResults,
        EvalScore,
        EvalSpec,
        EvalStats,
    )

    records = variant.records
    model, asked, served = _model(variant.name, records)
    samples = [_sample(record, suite, model) for record in records]
    first = records[0].meta
    spec = EvalSpec(
        eval_id=_id(run_id, suite.name, variant.name),
        run_id=run_id,
        created=_iso(started),
        task=suite.name,
        task_id=_id(suite.name, suite.edition),
        task_version=suite.edition or 0,
        dataset=EvalDataset(name=suite.name, samples=len(samples), sample_ids=[s.id for s in samples]),
        model=model,
        model_args={
            "variant": variant.name,
            **({"model": asked} if asked else {}),
            **({"served": served} if served else {}),
        },
        config=EvalConfig(),
        packages={"pytest-websearchbench": plugin_version, "inspect_ai": inspect_ai.__version__},
        metadata={
            "family": suite.family,
            "kind": suite.kind,
            "edition": suite.edition,
            "digest": first.digest,
            "variant": variant.name,
            **({"k": suite.k} if suite.k is not None else {}),
            **({"identity": dict(first.identity)} if first.identity else {}),
            **({"sources": list(suite.sources)} if suite.sources else {}),
        },
    )
    scores = [
        EvalScore(
            name=column.key,
            scorer=column.key,
            scored_samples=figure.n,
            unscored_samples=len(records) - figure.n,
            metrics={
                "mean": EvalMetric(name="mean", value=figure.mean),
                "ci95_low": EvalMetric(name="ci95_low", value=figure.low),
                "ci95_high": EvalMetric(name="ci95_high", value=figure.high),
            },
            metadata={"label": column.label, "errored_count_as": column.error_value},
        )
        for column in suite.columns
        if (figure := variant.metrics.get(column.key)) is not None
    ]
    usage: dict[str, ModelUsage] = {}
    for sample in samples:
        for name, used in sample.model_usage.items():
            usage[name] = usage[name] + used if name in usage else used
    return EvalLog(
        status="success" if complete else "cancelled",
        eval=spec,
        plan=EvalPlan(name=PLAN, steps=[EvalPlanStep(solver=variant.name, params={"family": suite.family})]),
        results=EvalResults(
            total_samples=len(samples),
            completed_samples=sum(not record.errored for record in records),
            scores=scores,
            metadata={**variant.to_dict(), "complete": complete},
        ),
        stats=EvalStats(started_at=_iso(started), completed_at=_iso(stopped), model_usage=usage),
        samples=samples,
    )


def _model(variant: str, records: Sequence[ItemRecord]) -> tuple[str, str, list[str]]:
    """The log's model (``<variant>/<model>`` when a model answered, else the variant), the model asked for
    and the models the answers named."""
    served = sorted({name for r in records for name in r.run.served.get(AGENT_SERVED, [])})
    asked = next((name for r in records if (name := _extra(r).get("model") or _details(r).get("model"))), "")
    shown = served[0] if len(served) == 1 else asked or ", ".join(served)
    return (f"{variant}/{shown}" if shown else variant), str(asked), served


def _id(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:22]


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat()


# ---------------------------------------------------------------------------------------------- a sample


def _sample(record: ItemRecord, suite: SuiteFigures, model: str) -> EvalSample:
    from inspect_ai.log import EvalError, EvalSample
    from inspect_ai.model import ChatMessageUser, ModelOutput, ModelUsage
    from inspect_ai.scorer import Score

    meta = record.meta
    sample = record.sample or {}
    text = str(sample.get("input") or meta.case_id)
    target = sample.get("target", "")
    turns, answer = _messages(record, model, suite.k)
    scores = {}
    for column in suite.columns:
        value = record.value(column.key, column.error_value)
        if value is None:
            continue
        if record.errored:
            why = f"errored: counts {value:g} in the means (the population rule)"
        else:
            why = (record.score.message if record.score else "") if column.key == record.primary else ""
        scores[column.key] = Score(value=value, explanation=why or None)
    error = record.run.error or record.message
    extra, details = _extra(record), _details(record)
    tokens = (extra.get("prompt_tokens"), extra.get("completion_tokens"))
    if tokens == (None, None):
        tokens = (details.get("input_tokens"), details.get("output_tokens"))
    used = {}
    if tokens != (None, None):
        sent, got = int(tokens[0] or 0), int(tokens[1] or 0)
        used[model] = ModelUsage(input_tokens=sent, output_tokens=got, total_tokens=sent + got)
    latency = record.latency
    return EvalSample(
        id=meta.case_id,
        epoch=1,
        input=text,
        target=target if isinstance(target, str) else [str(t) for t in target],
        messages=[ChatMessageUser(content=text), *turns],
        output=ModelOutput.from_content(model, answer) if answer else ModelOutput(model=model),
        scores=scores or None,
        metadata={
            "case": meta.case_id,
            "variant": meta.variant,
            "outcome": record.outcome,
            "error": record.run.error,
            "error_kind": record.run.error_kind,
            "message": record.message,
            "nodeid": record.nodeid,
            "family": meta.family,
            "kind": meta.kind,
            "tags": list(meta.tags),
            "cassette": record.run.cassette,
            **({"latency_ms": latency.to_dict()} if latency is not None else {}),
            **({"baseline": record.baseline.to_dict()} if record.baseline else {}),
        },
        model_usage=used,
        error=EvalError(message=error.splitlines()[0] if error else "", traceback=error, traceback_ansi=error)
        if record.errored
        else None,
    )


def _extra(record: ItemRecord) -> dict[str, Any]:
    extra = (record.run.raw or {}).get("extra")
    return extra if isinstance(extra, dict) else {}


def _details(record: ItemRecord) -> dict[str, Any]:
    """A WebBench agent's own account of its episode (a model agent's: its model, tokens, transcript)."""
    details = _extra(record).get("details")
    return details if isinstance(details, dict) else {}


def _messages(record: ItemRecord, model: str, k: int | None) -> tuple[list[ChatMessage], str]:
    """The item's messages after its input, and its final answer."""
    raw = record.run.raw or {}
    extra, details = _extra(record), _details(record)
    transcript = extra.get("transcript") or details.get("transcript")
    log = [step for step in extra.get("log") or [] if isinstance(step, dict)]
    if transcript:  # a model's turns: the code agent's, WebBench's model agent's
        observed = {step.get("step"): step.get("observation") for step in log}
        answer = extra.get("answer") or details.get("final_text") or ""
        return _turns(transcript, model, observed), str(answer)
    if log:  # a WebBench agent without a model: each browser action, and the page it got back
        return _steps(log), ""
    hits = [hit for hit in raw.get("hits") or [] if isinstance(hit, dict)]
    top = hits[:k] if k else hits
    answer = "\n".join(
        f"{hit.get('rank') or n}. {hit.get('title') or ''} {hit.get('url') or ''}" for n, hit in enumerate(top, 1)
    )
    return _retrieval(raw, extra, hits), answer


def _turns(transcript: list[Any], model: str, observed: dict[Any, Any]) -> list[ChatMessage]:
    """Each model turn as an assistant message (its reasoning and text, its tool calls), then each call's result
    as a tool message; a turn whose model call failed says why."""
    from inspect_ai.model import ChatMessageTool, ContentReasoning, ContentText
    from inspect_ai.tool import ToolCall

    messages: list[ChatMessage] = []
    for turn in transcript:
        if not isinstance(turn, dict):
            continue
        content: list[ContentReasoning | ContentText] = []
        calls: list[ToolCall] = []
        results: list[ChatMessage] = []
        for item in turn.get("output") or []:
            kind = item.get("type")
            if kind == "reasoning" and item.get("summary"):
                content.append(ContentReasoning(reasoning=str(item["summary"])))
            elif kind == "message" and item.get("text"):
                content.append(ContentText(text=str(item["text"])))
            elif kind == "function_call":
                call_id = str(item.get("call_id") or f"call-{turn.get('turn')}-{len(calls) + 1}")
                calls.append(ToolCall(id=call_id, function=str(item.get("name")), arguments=_arguments(item)))
                result = item.get("result", observed.get(item.get("step"), ""))
                results.append(
                    ChatMessageTool(content=str(result or ""), tool_call_id=call_id, function=item.get("name"))
                )
        if turn.get("error"):
            content.append(ContentText(text=f"(the model call failed: {turn['error']})"))
        if content or calls:
            messages.append(_assistant(content, calls, model))
            messages += results
    return messages


def _arguments(item: dict[str, Any]) -> dict[str, Any]:
    arguments = item.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError:
            return {"arguments": arguments}  # as the model wrote them
    return arguments if isinstance(arguments, dict) else {"arguments": arguments}


def _steps(log: list[dict[str, Any]]) -> list[ChatMessage]:
    """A WebBench agent's browser actions as calls of its one tool, ``browser``, each with the page it got."""
    from inspect_ai.model import ChatMessageTool
    from inspect_ai.tool import ToolCall

    messages: list[ChatMessage] = []
    for n, step in enumerate(log, 1):
        call_id = f"step-{step.get('step') or n}"
        given = step.get("arguments")
        arguments: dict[str, Any] = given if isinstance(given, dict) else {}
        call = ToolCall(id=call_id, function="browser", arguments={"action": step.get("action"), **arguments})
        messages.append(_assistant([], [call], None))
        messages.append(
            ChatMessageTool(content=str(step.get("observation") or ""), tool_call_id=call_id, function="browser")
        )
    return messages


def _retrieval(raw: dict[str, Any], extra: dict[str, Any], hits: list[dict[str, Any]]) -> list[ChatMessage]:
    """A provider's answers as tool calls: each search with the hits it returned, each fetch with its page (or
    why it failed)."""
    from inspect_ai.model import ChatMessageTool
    from inspect_ai.tool import ToolCall, ToolCallError

    queries = [str(q) for q in raw.get("queries") or []]
    messages: list[ChatMessage] = []
    for n, query in enumerate(queries, 1):
        shown = hits if n == 1 else []  # a provider item asks one query: its hits are all the run's
        call_id = f"search-{n}"
        messages.append(_assistant([], [ToolCall(id=call_id, function="web_search", arguments={"query": query})], None))
        result = json.dumps({"query": query, "hits": shown}, ensure_ascii=False, indent=1)
        messages.append(ChatMessageTool(content=result, tool_call_id=call_id, function="web_search"))
    pages = [page for page in raw.get("pages") or [] if isinstance(page, dict)]
    failed = [fetch for fetch in extra.get("failed_fetches") or [] if isinstance(fetch, dict)]
    for n, page in enumerate([*pages, *failed], 1):
        call_id = f"fetch-{n}"
        url = str(page.get("url") or "")
        messages.append(_assistant([], [ToolCall(id=call_id, function="web_fetch", arguments={"url": url})], None))
        if n > len(pages):
            why = ToolCallError("unknown", str(page.get("error") or "the fetch failed"))
            messages.append(ChatMessageTool(content="", tool_call_id=call_id, function="web_fetch", error=why))
        else:
            fetched = {"url": url, "title": page.get("title"), "content": page.get("text")}
            content = json.dumps(fetched, ensure_ascii=False)
            messages.append(ChatMessageTool(content=content, tool_call_id=call_id, function="web_fetch"))
    return messages


def _assistant(content: list[Any], calls: list[Any], model: str | None) -> ChatMessageAssistant:
    from inspect_ai.model import ChatMessageAssistant

    return ChatMessageAssistant(content=content or "", tool_calls=calls or None, model=model)
