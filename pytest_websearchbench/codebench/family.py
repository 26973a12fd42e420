"""The ``code`` family: web search for coding agents (DESIGN §2.1), one test per ticket.

Run modes (``--wsb-mode``): ``retrieval`` (the default, model-free: the ticket text is the
query, and on ``--wsb-board=search-fetch`` the top hits are fetched; the item passes when every
needle shows verbatim in what came back) and ``agent`` (the fixed agent, graded by
``grade_code_answer``). ``--wsb-selftest`` checks the suite itself instead: every gold passes and
every starter fails, grounding off.

The agent is the harness's by default (its model, the Responses API, its prompts, budgets and
tool results; the provider one of its arms, ``providers.presets``). Each option that leaves that
profile — Chat Completions, a temperature, another system prompt or model, budgets from the
command line, a provider that is no harness arm — is named on the item's raw results and in the
summary as "not comparable with the leaderboard".

Each (mode, board, model, model API) gets its own cassettes under the provider's folder, so
switching never makes a cassette stale: ``<provider>/`` (retrieval, search board),
``<provider>/search-fetch/``, ``<provider>/agent-<model>-<board>[-chat]/``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from pytest_websearchbench.codebench.agent import AgentSetup, retrieve, run_agent
from pytest_websearchbench.codebench.harness_json import write_harness_document
from pytest_websearchbench.codebench.options import (
    BOARD_SEARCH, BOARD_SEARCH_FETCH, BUDGET_OPTIONS, HARNESS_BUDGETS, MODE_AGENT, MODE_RETRIEVAL)
from pytest_websearchbench.providers.model_client import TRANSPORTS, ModelClient, ModelEndpoint
from pytest_websearchbench.codebench.prompts import system_prompt
from pytest_websearchbench.codebench.scoring import FAITHFUL, score_agent, score_retrieval, score_selftest
from pytest_websearchbench.codebench.tasks import CodeTask, is_catalog, load_tasks
from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.family import (
    BenchmarkFamily, Case, MetricColumn, RawResults, RunContext, Score, Suite)
from pytest_websearchbench.core.options import DEFAULT_MODEL, RESPONSES_API, OptionValues, Settings
from pytest_websearchbench.core.suites import SuiteManifest, digest_files
from pytest_websearchbench.providers.presets import ARMS_BY_NAME

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
    system_prompt_file: Path | None = None
    system_prompt_text: str = ""
    budget_changes: dict[str, int] = field(default_factory=dict)
    selftest: bool = False
    endpoint: ModelEndpoint = field(default_factory=ModelEndpoint)
    may_record: bool = True
    code_json: Path | None = None
    strict_grader: bool = False  # also grade with grader_strict, as a diagnostic apart from the verdict

    @property
    def label(self) -> str:
        """What the summary and results file call this run of the suite (its ``kind``)."""
        return SELFTEST if self.selftest else f"{self.mode}/{self.board}"

    def departures(self) -> list[str]:
        """The run's settings that leave the harness's profile (agent mode)."""
        out = []
        if self.model != DEFAULT_MODEL:
            out.append(f"model {self.model} (the leaderboard's: {DEFAULT_MODEL})")
        if self.model_api != RESPONSES_API:
            out.append("Chat Completions instead of the Responses API")
        if self.temperature is not None:
            out.append(f"temperature {self.temperature:g}")
        if self.system_prompt_file is not None:
            out.append(f"system prompt from {self.system_prompt_file}")
        changed = {k: v for k, v in self.budget_changes.items() if HARNESS_BUDGETS[k] != v}
        if changed:
            out.append("budgets " + ", ".join(f"{k}={v}" for k, v in changed.items()))
        return out

    def profile(self, provider: str) -> str:
        """``faithful``, or why an item of ``provider`` is not comparable with the leaderboard."""
        reasons = self.departures()
        if provider not in ARMS_BY_NAME:
            reasons.append(f"provider {provider} is not a harness arm")
        return f"{NOT_COMPARABLE}: " + "; ".join(reasons) if reasons else FAITHFUL


class CodeFamily(BenchmarkFamily):
    name = "code"
    file_format = "code rows have task_id, vendor, ticket, starter_code, gold_code"

    def __init__(self, run: CodeRun | None = None) -> None:
        self.code_run = run or CodeRun()
        self.records_traffic = not self.code_run.selftest

    # ------------------------------------------------------------------ the run's configuration

    def configure(self, options: OptionValues, settings: Settings) -> "CodeFamily":
        mode, board, selftest = options["wsb_mode"], options["wsb_board"], options["wsb_selftest"]
        changes = {budget: options[ini] for ini, budget in BUDGET_OPTIONS.items()}
        prompt_file, prompt_text = _system_prompt(options["wsb_system_prompt"])
        code_json = options["wsb_code_json"]
        if code_json and mode != MODE_AGENT and not selftest:
            raise ConfigurationError("--wsb-code-json writes agent results: it needs --wsb-mode=agent")
        endpoint = ModelEndpoint.from_environ(os.environ)
        if mode == MODE_AGENT and not selftest:
            if settings.record_mode.may_record and not (endpoint.api_key or endpoint.base_url) \
                    and not any(settings.cassette_dir.glob("*/*/agent-*/*.yaml")):
                raise ConfigurationError(
                    "--wsb-mode=agent calls the model: set OPENAI_API_KEY (and OPENAI_BASE_URL for a server other "
                    "than OpenAI's), or replay recorded episodes with --wsb-record-mode=none")
            for provider in settings.providers:
                arm = ARMS_BY_NAME.get(provider)
                if arm is not None and board not in arm.boards:
                    raise ConfigurationError(
                        f"--provider={provider}: the harness runs this arm on the {' and '.join(arm.boards)} "
                        f"board only; use --wsb-board={arm.boards[0]}")
        return CodeFamily(CodeRun(
            mode=mode, board=board, model=options["wsb_model"], model_api=options["wsb_model_api"],
            temperature=options["wsb_temperature"], system_prompt_file=prompt_file, system_prompt_text=prompt_text,
            budget_changes={k: v for k, v in changes.items() if v is not None}, selftest=selftest,
            endpoint=endpoint, may_record=settings.record_mode.may_record,
            code_json=Path(code_json).resolve() if code_json else None,
            strict_grader=options["wsb_strict_grader"]))

    def variants(self, settings: Settings) -> tuple[str, ...]:
        return (SELFTEST,) if self.code_run.selftest else settings.providers

    def run_label(self, suite: Suite) -> str:
        return self.code_run.label

    def cassette_folder(self, variant: str) -> str:
        run = self.code_run
        if run.mode == MODE_AGENT:
            api = "" if run.model_api == RESPONSES_API else f"-{run.model_api}"
            return f"{variant}/agent-{_slug(run.model)}-{run.board}{api}"
        return variant if run.board == BOARD_SEARCH else f"{variant}/{run.board}"

    def cassette_aliases(self) -> dict[str, str]:
        if self.code_run.mode != MODE_AGENT:
            return {}
        return self.code_run.endpoint.aliases(self.code_run.may_record)

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
        if run.system_prompt_file is not None:
            args += f" --wsb-system-prompt={run.system_prompt_file}"
        return args + "".join(f" --wsb-max-{k}={v}" for k, v in run.budget_changes.items())

    def recognizes(self, record) -> str | None:
        """Files without a manifest: published rows, or a harness catalog (items with an id)."""
        if isinstance(record, dict) and "task_id" in record and ({"ticket", "gold_code"} & set(record)):
            return ""
        if is_catalog(record) and record["items"] and isinstance(record["items"][0], dict) \
                and "id" in {**(record.get("defaults") or {}), **record["items"][0]}:
            return ""
        return None

    # ------------------------------------------------------------------ load, run, score

    def load(self, manifest: SuiteManifest) -> Suite:
        items = manifest.file("items")
        tasks = load_tasks(items)
        files = [items] if manifest.path.resolve() == items else [manifest.path, items]
        return Suite(manifest, tuple(_case(task) for task in tasks), digest_files(files))

    def run(self, suite: Suite, case: Case, ctx: RunContext) -> RawResults:
        task: CodeTask = case.data
        run = self.code_run
        if run.selftest:
            return RawResults(extra={"mode": SELFTEST})
        if run.mode == MODE_RETRIEVAL:
            return retrieve(task, ctx.provider, ctx.k, run.board)
        arm = ARMS_BY_NAME.get(ctx.variant)
        setup = AgentSetup(api=TRANSPORTS[run.model_api](run.model, run.temperature), board=run.board,
                           system=run.system_prompt_text or system_prompt(run.board == BOARD_SEARCH_FETCH),
                           budget_changes=run.budget_changes)
        client = ModelClient(run.endpoint.url_for(run.may_record), run.endpoint.api_key)
        try:
            raw = run_agent(task, ctx.provider, arm.harness_name if arm else ctx.variant, client, setup)
        finally:
            client.close()
        raw.extra["profile"] = run.profile(ctx.variant)
        return raw

    def score(self, suite: Suite, case: Case, raw: RawResults, k: int) -> Score:
        run = self.code_run
        if run.selftest:
            return score_selftest(case.data)
        if run.mode == MODE_AGENT:
            return score_agent(case.data, raw, strict=run.strict_grader)
        return score_retrieval(case.data, raw, k)

    def columns(self, kind: str, k: int) -> list[MetricColumn]:
        if kind == SELFTEST:
            return [MetricColumn("pass", "self-check"), MetricColumn("gold_pass", "gold passes"),
                    MetricColumn("starter_fail", "starter fails"), MetricColumn("needles", "needles/ticket")]
        # an item whose provider failed counts as unsolved (the harness scores every declared ticket)
        common = [MetricColumn("pass", "solved", 0.0), MetricColumn("needle_recall", "needle recall", 0.0),
                  MetricColumn("needles_found", "needles found"), MetricColumn("needles", "needles/ticket"),
                  MetricColumn("searches", "searches"), MetricColumn("fetches", "fetches")]
        if kind.startswith(MODE_AGENT):
            return common + [MetricColumn("compiled", "compiled"), MetricColumn("turns", "turns"),
                             MetricColumn("tokens", "tokens"), MetricColumn("leaky_queries", "leaky queries"),
                             MetricColumn("run_error", "run errors (failed)")] + (
                [MetricColumn("strict_pass", "strict grader (diagnostic, not comparable)")]
                if self.code_run.strict_grader else [])
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
        return [("leaderboard", cells)]

    def write_outputs(self, records) -> None:
        run = self.code_run
        if run.code_json is None or run.mode != MODE_AGENT or run.selftest:
            return
        items = [r.to_dict() for r in records if r.meta.get("family") == self.name]
        write_harness_document(run.code_json, items, model=run.model, board=run.board)

    def drilldown(self, item: dict) -> "Drilldown":
        """The report's view of a ticket: the judge's verdict and notes, each needle (found where; agent: present,
        cited, grounded), the extracted code, the searches with the hits they returned and the fetches with
        the page text, and the budgets used."""
        from pytest_websearchbench.core.family import Drilldown

        raw = item.get("raw") or {}
        extra = raw.get("extra") or {}
        results = item.get("results") or []
        hits, pages = raw.get("hits") or [], raw.get("pages") or []
        if "search_hops" in extra:  # the agent: its searches in order, each with the hits it was shown
            searches, start = [], 0
            for hop in extra["search_hops"]:
                count = hop.get("n_hits") or 0
                searches.append({**hop, "hits": hits[start:start + count]})
                start += count
        else:  # the probe: one search, the ticket text as the query
            searches = [{"query": query, "hits": hits} for query in (raw.get("queries") or [])[:1]]
        text_of = {page.get("url"): page.get("text") or "" for page in pages}
        fetches = [{**hop, "text": text_of.get(hop.get("url"), "")} for hop in extra.get("fetch_hops") or []] or (
            [{"url": p.get("url"), "title": p.get("title"), "chars": len(p.get("text") or ""), "text": p.get("text")}
             for p in pages] + [{**failed, "text": ""} for failed in extra.get("failed_fetches") or []])
        budgets = extra.get("budgets")
        used = {name: extra[name] for name in ("turns", "searches", "fetches") if name in extra}
        return Drilldown("drilldown.html.j2", {
            "mode": extra.get("mode", ""), "board": extra.get("board", ""),
            "judge": next((r["judge"] for r in results if "judge" in r), None),
            "code": next((r.get("source") for r in results if "judge" in r), None),
            "profile": next((r.get("profile") for r in results if "judge" in r), None),
            "needles": [r for r in results if "needle" in r], "leaks": [r for r in results if "leaky_query" in r],
            "searches": searches, "fetches": fetches, "budgets": budgets, "used": used,
            "stopped": extra.get("stopped"), "tokens": (extra.get("prompt_tokens"), extra.get("completion_tokens")),
            "answer": extra.get("answer"), "notes": extra.get("notes") or []})


def _case(task: CodeTask) -> Case:
    vendor = re.sub(r"\W+", "_", task.vendor.lower()).strip("_") or "unknown"
    return Case(task.task_id, task, markers=("code", f"vendor_{vendor}"), keywords=(task.vendor,))


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._]+", "-", text).strip("-").lower() or "model"


def _system_prompt(path_text: str) -> tuple[Path | None, str]:
    if not path_text:
        return None, ""
    path = Path(path_text)
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigurationError(f"--wsb-system-prompt: cannot read {path}: {getattr(exc, 'strerror', None) or exc}") \
            from None
    if not text.strip():
        raise ConfigurationError(f"--wsb-system-prompt: {path} is empty")
    return path, text
