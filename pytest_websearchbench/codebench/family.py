"""The ``code`` family: web search for coding agents (DESIGN §2.1), one test per ticket.

Run modes (``--wsb-mode``): ``retrieval`` (the default, model-free: the ticket text is the
query, and on ``--wsb-board=search-fetch`` the top hits are fetched; the item passes when every
needle shows verbatim in what came back) and ``agent`` (the fixed agent, graded by
``grade_code_answer``). ``--wsb-selftest`` checks the suite itself instead: every gold passes and
every starter fails, grounding off. In agent mode ``--wsb-repeat N`` runs every ticket N times (items
``<ticket>@1`` … ``@N``); the summary gives the pass rate as mean ± SD over the runs, as the
leaderboard reports it over 3 runs, and each ticket's passes.

The agent is the harness's by default (its model, the Responses API, its prompts, budgets and
tool results; the provider one of its arms, ``providers.presets``). Each option that leaves that
profile — Chat Completions, a temperature, another system prompt or model, budgets from the
command line or the tickets' own, a provider that is no harness arm — is named on the item's raw
results and in the summary as "not comparable with the leaderboard".

Each (mode, board, model, model API) gets its own cassettes under the provider's folder, so
switching never makes a cassette stale: ``<provider>/`` (retrieval, search board),
``<provider>/search-fetch/``, ``<provider>/agent-<model>-<board>[-chat]/``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pytest_websearchbench.codebench.agent import SINGLE_REQUEST, AgentSetup, retrieve, run_agent
from pytest_websearchbench.codebench.harness_json import write_harness_document
from pytest_websearchbench.codebench.options import (
    BOARD_SEARCH,
    BOARD_SEARCH_FETCH,
    BUDGET_OPTIONS,
    HARNESS_BUDGETS,
    MODE_AGENT,
    MODE_RETRIEVAL,
)
from pytest_websearchbench.codebench.prompts import PromptFile, ToolTexts, read_prompt_file, system_prompt
from pytest_websearchbench.codebench.scoring import FAITHFUL, score_agent, score_retrieval, score_selftest
from pytest_websearchbench.codebench.tasks import Budgets, CodeTask, is_catalog, load_tasks
from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.family import (
    BenchmarkFamily,
    Case,
    CaseSample,
    Drilldown,
    MetricColumn,
    RawResults,
    RunContext,
    Score,
    Suite,
)
from pytest_websearchbench.core.options import (
    AGENT_MODEL,
    AGENT_SERVED,
    BOARD,
    DEFAULT_MODEL,
    MODE,
    RESPONSES_API,
    OptionValues,
    Settings,
    output_path,
)
from pytest_websearchbench.core.repeats import repeat_cases, repeat_summary, run_of
from pytest_websearchbench.core.suites import SuiteManifest, digest_files
from pytest_websearchbench.providers.model_client import TRANSPORTS, ModelClient, ModelEndpoint
from pytest_websearchbench.providers.presets import ARMS_BY_NAME

if TYPE_CHECKING:
    from pytest_websearchbench.providers.base import Provider

SELFTEST = "selftest"
NOT_COMPARABLE = "not comparable with the leaderboard"


@dataclass(frozen=True)
class CodeRun:
    """The run's choices that matter to this family (from its options and the environment)."""

    mode: str = MODE_RETRIEVAL
    board: str = BOARD_SEARCH
    model: str = DEFAULT_MODEL
    model_api: str = RESPONSES_API
    temperature: float | None = None
    prompt_file: PromptFile | None = None  # --wsb-system-prompt: system prompts and tool descriptions
    budget_changes: dict[str, int] = field(default_factory=dict)
    ticket_budgets: bool = False  # the tickets' own budgets under the command line's (not the harness's)
    provider_retries: bool = False  # retry provider calls by the run's policy (the harness sends each once)
    repeat: int = 1  # agent mode: runs of every ticket (--wsb-repeat), each its own item
    selftest: bool = False
    endpoint: ModelEndpoint = field(default_factory=ModelEndpoint)
    calls_out: bool = True  # the run calls the model (Settings.calls_out): its real URL, aliased in cassettes
    code_json: Path | None = None
    strict_grader: bool = False  # also grade with grader_strict, as a diagnostic apart from the verdict

    @property
    def label(self) -> str:
        """What the summary and results file call this run of the suite (its ``kind``)."""
        return SELFTEST if self.selftest else f"{self.mode}/{self.board}"

    def setup(self) -> AgentSetup:
        """The agent's setup for this run (agent mode)."""
        search_fetch = self.board == BOARD_SEARCH_FETCH
        prompts = self.prompt_file
        return AgentSetup(
            api=TRANSPORTS[self.model_api](self.model, self.temperature),
            board=self.board,
            system=prompts.system_prompt(search_fetch) if prompts else system_prompt(search_fetch),
            tool_texts=prompts.tool_texts if prompts else ToolTexts(),
            budget_changes=self.budget_changes,
            ticket_budgets=self.ticket_budgets,
            provider_retry=None if self.provider_retries else SINGLE_REQUEST,
        )

    def departures(self, task: CodeTask | None = None) -> list[str]:
        """The run's settings that leave the harness's profile (agent mode); with ``task``, also the
        ticket's own budgets when they differ from the ones the harness would pass."""
        out = []
        if self.model != DEFAULT_MODEL:
            out.append(f"model {self.model} (the leaderboard's: {DEFAULT_MODEL})")
        if self.model_api != RESPONSES_API:
            out.append("Chat Completions instead of the Responses API")
        if self.temperature is not None:
            out.append(f"temperature {self.temperature:g}")
        if self.prompt_file is not None:
            parts = [
                name
                for name, given in (
                    ("system prompt", self.prompt_file.system),
                    ("tool descriptions", self.prompt_file.tool_texts.tools),
                )
                if given
            ]
            out.append(f"{' and '.join(parts)} from {self.prompt_file.path}")
        changed = {k: v for k, v in self.budget_changes.items() if HARNESS_BUDGETS[k] != v}
        if changed:
            out.append("budgets " + ", ".join(f"{k}={v}" for k, v in changed.items()))
        if self.provider_retries:
            out.append("provider calls retried (--wsb-provider-retries)")
        if task is not None and self.ticket_budgets:
            setup = self.setup()
            if setup.budgets(task) != replace(setup, ticket_budgets=False).budgets(task):
                out.append("the tickets' own budgets (--wsb-ticket-budgets)")
        return out

    def profile(self, provider: str, task: CodeTask | None = None) -> str:
        """``faithful``, or why an item of ``provider`` is not comparable with the leaderboard."""
        reasons = self.departures(task)
        if provider not in ARMS_BY_NAME:
            reasons.append(f"provider {provider} is not a harness arm")
        return f"{NOT_COMPARABLE}: " + "; ".join(reasons) if reasons else FAITHFUL


class CodeFamily(BenchmarkFamily):
    name = "code"
    file_format = "code rows have task_id, vendor, ticket, starter_code, gold_code"
    outputs_answers = False  # --wsb-code-json's rows read the run's extra and the judge's row only

    def __init__(self, run: CodeRun | None = None) -> None:
        self.code_run = run or CodeRun()
        self.records_traffic = not self.code_run.selftest

    # ------------------------------------------------------------------ the run's configuration

    def configure(self, options: OptionValues, settings: Settings) -> CodeFamily:
        mode, board, selftest = options["wsb_mode"], options["wsb_board"], options["wsb_selftest"]
        changes = {budget: options[ini] for ini, budget in BUDGET_OPTIONS.items()}
        prompt_path = options["wsb_system_prompt"]
        prompt_file = read_prompt_file(Path(prompt_path)) if prompt_path else None
        repeat = options["wsb_repeat"] if mode == MODE_AGENT else 1  # a code run repeats agent episodes only
        code_json = options["wsb_code_json"]
        if code_json and mode != MODE_AGENT and not selftest:
            raise ConfigurationError("--wsb-code-json writes agent results: it needs --wsb-mode=agent")
        endpoint = ModelEndpoint.from_environ(os.environ)
        if mode == MODE_AGENT and not selftest:
            if (
                settings.calls_out
                and not settings.dry_run  # a plan calls no model
                and not (endpoint.api_key or endpoint.base_url)
                and not any(settings.cassette_dir.glob("*/*/agent-*/*.yaml"))
            ):
                raise ConfigurationError(
                    "--wsb-mode=agent calls the model: set OPENAI_API_KEY (and OPENAI_BASE_URL for a server other "
                    "than OpenAI's), or replay recorded episodes with --wsb-record-mode=none"
                )
            for provider in settings.providers:
                arm = ARMS_BY_NAME.get(provider)
                if arm is not None and board not in arm.boards:
                    raise ConfigurationError(
                        f"--provider={provider}: the harness runs this arm on the {' and '.join(arm.boards)} "
                        f"board only; use --wsb-board={arm.boards[0]}"
                    )
        return CodeFamily(
            CodeRun(
                mode=mode,
                board=board,
                model=options["wsb_model"],
                model_api=options["wsb_model_api"],
                temperature=options["wsb_temperature"],
                prompt_file=prompt_file,
                budget_changes={k: v for k, v in changes.items() if v is not None},
                ticket_budgets=options["wsb_ticket_budgets"],
                provider_retries=options["wsb_provider_retries"],
                repeat=1 if selftest else repeat,
                selftest=selftest,
                endpoint=endpoint,
                calls_out=settings.calls_out,
                code_json=output_path(Path(code_json).resolve(), "--wsb-code-json") if code_json else None,
                strict_grader=options["wsb_strict_grader"],
            )
        )

    def variants(self, settings: Settings) -> tuple[str, ...]:
        return (SELFTEST,) if self.code_run.selftest else settings.providers

    def repeats(self) -> int:
        return self.code_run.repeat

    def run_label(self, suite: Suite) -> str:
        return self.code_run.label

    def identity(self, suite: Suite | None = None) -> dict[str, str]:
        run = self.code_run
        if run.selftest:
            return {}
        out = {MODE: run.mode, BOARD: run.board}
        if run.mode == MODE_AGENT:
            out[AGENT_MODEL] = run.model if run.model_api == RESPONSES_API else f"{run.model} ({run.model_api})"
        return out

    def provider_calls(self, case: Case | None = None) -> dict[str, int]:
        """The retrieval probe: one search, and on the search-fetch board a fetch of each top hit up to the
        ticket's fetch budget; the agent: its search and fetch budgets (no fetch on the search board)."""
        run = self.code_run
        if run.selftest:
            return {}
        task: CodeTask | None = case.data if case is not None else None
        if run.mode == MODE_RETRIEVAL:
            fetches = (task.budgets if task is not None else Budgets()).fetches
            return {"search": 1, "fetch": fetches if run.board == BOARD_SEARCH_FETCH else 0}
        budgets = run.setup().budgets(task) if task is not None else self._budgets()
        return {"search": budgets.searches, "fetch": budgets.fetches}

    def model_calls(self, case: Case | None = None) -> int:
        run = self.code_run
        if run.selftest or run.mode != MODE_AGENT:
            return 0
        return (run.setup().budgets(case.data) if case is not None else self._budgets()).turns

    def _budgets(self) -> Budgets:
        """The agent's budgets when no ticket says otherwise: the harness's, then the command line's."""
        run = self.code_run
        budgets = Budgets().overridden(run.budget_changes)
        return budgets if run.board == BOARD_SEARCH_FETCH else budgets.overridden({"fetches": 0})

    def cassette_folder(self, variant: str) -> str:
        run = self.code_run
        if run.mode == MODE_AGENT:
            api = "" if run.model_api == RESPONSES_API else f"-{run.model_api}"
            return f"{variant}/agent-{_slug(run.model)}-{run.board}{api}"
        return variant if run.board == BOARD_SEARCH else f"{variant}/{run.board}"

    def cassette_aliases(self) -> dict[str, str]:
        if self.code_run.mode != MODE_AGENT:
            return {}
        return self.code_run.endpoint.aliases(self.code_run.calls_out)

    def secrets(self) -> list[str]:
        return [self.code_run.endpoint.api_key] if self.code_run.endpoint.api_key else []

    def record_args(self) -> str:
        run = self.code_run
        args = f" --wsb-board={run.board}" if run.board != BOARD_SEARCH else ""
        if run.mode != MODE_AGENT:
            return args
        args = f" --wsb-mode=agent --wsb-model={run.model}" + args
        if run.model_api != RESPONSES_API:
            args += f" --wsb-model-api={run.model_api}"
        if run.temperature is not None:
            args += f" --wsb-temperature={run.temperature:g}"
        if run.prompt_file is not None:
            args += f" --wsb-system-prompt={run.prompt_file.path}"
        args += " --wsb-ticket-budgets" if run.ticket_budgets else ""
        args += f" --wsb-repeat={run.repeat}" if run.repeat > 1 else ""
        args += " --wsb-provider-retries" if run.provider_retries else ""
        return args + "".join(f" --wsb-max-{k}={v}" for k, v in run.budget_changes.items())

    def recognizes(self, record: Any) -> str | None:
        """Files without a manifest: published rows, or a harness catalog (items with an id)."""
        if isinstance(record, dict) and "task_id" in record and ({"ticket", "gold_code"} & set(record)):
            return ""
        if (
            is_catalog(record)
            and record["items"]
            and isinstance(record["items"][0], dict)
            and "id" in {**(record.get("defaults") or {}), **record["items"][0]}
        ):
            return ""
        return None

    # ------------------------------------------------------------------ load, run, score

    def load(self, manifest: SuiteManifest) -> Suite:
        items = manifest.file("items")
        assert items is not None  # the suite schema requires items
        tasks = load_tasks(items, manifest.field_map("code-row"))
        files = [items] if manifest.path.resolve() == items.resolve() else [manifest.path, items]
        return Suite(manifest, repeat_cases((_case(task) for task in tasks), self.code_run.repeat), digest_files(files))

    def run(self, suite: Suite, case: Case, ctx: RunContext) -> RawResults:
        task: CodeTask = case.data
        run = self.code_run
        if run.selftest:
            return RawResults(extra={"mode": SELFTEST})
        if run.mode == MODE_RETRIEVAL:
            return retrieve(task, _provider(ctx), ctx.k, run.board)
        arm = ARMS_BY_NAME.get(ctx.variant)
        client = ModelClient(run.endpoint.url_for(run.calls_out), run.endpoint.api_key)
        try:
            raw = run_agent(task, _provider(ctx), arm.harness_name if arm else ctx.variant, client, run.setup())
        finally:
            client.close()
        raw.extra["profile"] = run.profile(ctx.variant, task)
        if client.served:
            raw.served[AGENT_SERVED] = client.served_models()
        return raw

    def score(self, suite: Suite, case: Case, raw: RawResults, k: int) -> Score:
        run = self.code_run
        if run.selftest:
            return score_selftest(case.data)
        if run.mode == MODE_AGENT:
            score = score_agent(case.data, raw, strict=run.strict_grader)
            if run.repeat > 1:  # which run of which ticket, out of how many tickets (for the summary)
                ticket, number = run_of(case.id)
                score.results[0].update(ticket=ticket, run=number, tickets=len({c.data.task_id for c in suite.cases}))
            return score
        return score_retrieval(case.data, raw, k)

    def columns(self, kind: str, k: int) -> list[MetricColumn]:
        if kind == SELFTEST:
            return [
                MetricColumn("pass", "self-check"),
                MetricColumn("gold_pass", "gold passes"),
                MetricColumn("starter_fail", "starter fails"),
                MetricColumn("needles", "needles/ticket"),
            ]
        # an item whose provider failed counts as unsolved (the harness scores every declared ticket)
        common = [
            MetricColumn("pass", "solved", 0.0),
            MetricColumn("needle_recall", "needle recall", 0.0),
            MetricColumn("needles_found", "needles found"),
            MetricColumn("needles", "needles/ticket"),
            MetricColumn("searches", "searches"),
            MetricColumn("fetches", "fetches"),
        ]
        if kind.startswith(MODE_AGENT):
            return (
                common
                + [
                    MetricColumn("compiled", "compiled"),
                    MetricColumn("turns", "turns"),
                    MetricColumn("tokens", "tokens"),
                    MetricColumn("leaky_queries", "leaky queries"),
                    MetricColumn("run_error", "run errors (failed)"),
                ]
                + (
                    [MetricColumn("strict_pass", "strict grader (diagnostic, not comparable)")]
                    if self.code_run.strict_grader
                    else []
                )
            )
        return common + [MetricColumn("leaky_queries", "leaky queries")]

    def summary_rows(self, scores: list[list[Score]]) -> list[tuple[str, list[str]]]:
        """Whether each provider's numbers mean what the leaderboard's mean."""
        if self.code_run.selftest:
            return []
        if self.code_run.mode != MODE_AGENT:
            return [("leaderboard", [f"{NOT_COMPARABLE}: model-free retrieval probe" for _ in scores])]
        cells = []
        for variant_scores in scores:
            profiles = {row["profile"] for s in variant_scores for row in s.results[:1] if "profile" in row}
            cells.append("; ".join(sorted(profiles)) or "-")
        return [("leaderboard", cells)] + self._repeat_rows(scores)

    def _repeat_rows(self, scores: list[list[Score]]) -> list[tuple[str, list[str]]]:
        """Under --wsb-repeat: each provider's pass rate as mean ± SD over the runs (as the leaderboard
        reports it), and each ticket's passes out of the runs."""
        runs = self.code_run.repeat
        if runs == 1:
            return []
        summaries = []
        for variant_scores in scores:
            rows = [s.results[0] for s in variant_scores if s.results and "run" in s.results[0]]
            summaries.append(
                repeat_summary(
                    ((r["ticket"], r["run"], r["judge"]["passed"]) for r in rows),
                    runs,
                    max((r["tickets"] for r in rows), default=0),
                )
            )
        tickets = sorted({ticket for summary in summaries for ticket in summary.passes})
        return [(f"pass rate over {runs} runs", [s.text() for s in summaries])] + [
            (f"passes {ticket}", [f"{s.passes[ticket]}/{runs}" if ticket in s.passes else "-" for s in summaries])
            for ticket in tickets
        ]

    def write_outputs(self, records: list[Any]) -> None:  # the run's ItemRecords (reporting: a layer above)
        run = self.code_run
        if run.code_json is None or run.mode != MODE_AGENT or run.selftest:
            return
        items = [r.to_dict() for r in records if r.meta.family == self.name]
        write_harness_document(run.code_json, items, model=run.model, board=run.board, secrets=self.secrets())

    def case_sample(self, suite: Suite, case: Case) -> CaseSample:
        """The agent's user message (the task's prompt) or the probe's query (the ticket), and the needles the
        judge looks for (never the gold code: it is shown to no model, and a log may be read by one)."""
        task: CodeTask = case.data
        return CaseSample(task.prompt if self.code_run.mode == MODE_AGENT else task.ticket, task.needle_texts)

    def drilldown(self, item: dict[str, Any]) -> Drilldown:
        """The report's view of a ticket: the judge's verdict and notes, each needle (found where; agent: present,
        cited, grounded), the extracted code, the searches with the hits they returned and the fetches with
        the page text, the budgets used, and the agent's transcript (every model turn)."""
        raw = item.get("raw") or {}
        extra = raw.get("extra") or {}
        results = item.get("results") or []
        hits, pages = raw.get("hits") or [], raw.get("pages") or []
        if "search_hops" in extra:  # the agent: its searches in order, each with the hits it was shown
            searches, start = [], 0
            for hop in extra["search_hops"]:
                count = hop.get("n_hits") or 0
                searches.append({**hop, "hits": hits[start : start + count]})
                start += count
        else:  # the probe: one search, the ticket text as the query
            searches = [{"query": query, "hits": hits} for query in (raw.get("queries") or [])[:1]]
        text_of = {page.get("url"): page.get("text") or "" for page in pages}
        fetches = [{**hop, "text": text_of.get(hop.get("url"), "")} for hop in extra.get("fetch_hops") or []] or (
            [
                {"url": p.get("url"), "title": p.get("title"), "chars": len(p.get("text") or ""), "text": p.get("text")}
                for p in pages
            ]
            + [{**failed, "text": ""} for failed in extra.get("failed_fetches") or []]
        )
        budgets = extra.get("budgets")
        used = {name: extra[name] for name in ("turns", "searches", "fetches") if name in extra}
        return Drilldown(
            "drilldown.html.j2",
            {
                "mode": extra.get("mode", ""),
                "board": extra.get("board", ""),
                "judge": next((r["judge"] for r in results if "judge" in r), None),
                "code": next((r.get("source") for r in results if "judge" in r), None),
                "profile": next((r.get("profile") for r in results if "judge" in r), None),
                "needles": [r for r in results if "needle" in r],
                "leaks": [r for r in results if "leaky_query" in r],
                "searches": searches,
                "fetches": fetches,
                "budgets": budgets,
                "used": used,
                "stopped": extra.get("stopped"),
                "tokens": (extra.get("prompt_tokens"), extra.get("completion_tokens")),
                "answer": extra.get("answer"),
                "notes": extra.get("notes") or [],
                "transcript": extra.get("transcript") or [],
                "model": extra.get("model"),
                # a results file written without --wsb-json-raw keeps no hits or pages (core/models.without_answers)
                "answers_omitted": bool(raw) and "hits" not in raw and "pages" not in raw,
            },
            failure_mode=_failure_mode(item, extra, results),
        )


def _failure_mode(item: dict[str, Any], extra: dict[str, Any], results: list[dict[str, Any]]) -> str:
    """How a ticket failed: the episode's run error, the judge's first note's kind (missing, uncited,
    ungrounded…), no answer, code that did not compile, or (probe) a needle nowhere in what came back."""
    if item.get("outcome") in (None, "passed", "skipped"):
        return ""
    if extra.get("run_error"):
        return "run error"
    judge = next((r["judge"] for r in results if "judge" in r), None)
    if judge is not None and not judge.get("passed"):
        if not judge.get("compiled"):
            return "no answer" if not (extra.get("answer") or "").strip() else "did not compile"
        return next((f"answer {note.split(':')[0]}" for note in judge.get("notes") or []), "answer failed")
    if any(r.get("found") is False for r in results):
        return "needle not found"
    return ""


def _provider(ctx: RunContext) -> Provider:
    """The provider under test: the core names it by the shape a family asks of it (``SearchProvider``); a
    code item is run with the registry's provider itself, whose cassette bookkeeping the harness uses."""
    return cast("Provider", ctx.provider)


def _case(task: CodeTask) -> Case:
    vendor = re.sub(r"\W+", "_", task.vendor.lower()).strip("_") or "unknown"
    return Case(task.task_id, task, markers=("code", f"vendor_{vendor}"), keywords=(task.vendor,))


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._]+", "-", text).strip("-").lower() or "model"
