"""The ``code`` family: web search for coding agents (DESIGN §2.1), one test per ticket.

Run modes (``--wsb-mode``): ``retrieval`` (the default, model-free: the ticket text is the
query, and on ``--wsb-board=search-fetch`` the top hits are fetched; the item passes when every
needle shows verbatim in what came back) and ``agent`` (the fixed agent against an
OpenAI-compatible model, graded by ``grade_code_answer``). ``--wsb-selftest`` checks the suite
itself instead: every gold passes and every starter fails, grounding off.

Each (mode, board, model) gets its own cassettes under the provider's folder, so switching
modes never makes a cassette stale: ``<provider>/`` (retrieval, search board),
``<provider>/search-fetch/``, ``<provider>/agent-<model>-<board>/``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from pytest_websearchbench.codebench.model_client import ChatClient, ModelEndpoint
from pytest_websearchbench.codebench.agent import BOARD_SEARCH, BOARDS, retrieve, run_agent
from pytest_websearchbench.codebench.scoring import score_agent, score_retrieval, score_selftest
from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.options import FamilyOptions, OptionReader, Settings
from pytest_websearchbench.providers.retry import RetryPolicy
from pytest_websearchbench.core.family import (
    BenchmarkFamily, Case, MetricColumn, RawResults, RunContext, Score, Suite)
from pytest_websearchbench.codebench.tasks import CodeTask, is_catalog, load_tasks
from pytest_websearchbench.core.suites import SuiteManifest, digest_files

MODE_RETRIEVAL = "retrieval"
MODE_AGENT = "agent"
MODES = (MODE_RETRIEVAL, MODE_AGENT)
SELFTEST = "selftest"
ROW_FIELDS = ("task_id", "vendor", "ticket", "starter_code", "gold_code")


@dataclass(frozen=True)
class CodeRun:
    """The run's choices that matter to this family (from its options and the environment)."""

    mode: str = MODE_RETRIEVAL
    board: str = BOARD_SEARCH
    model: str = ""
    selftest: bool = False
    endpoint: ModelEndpoint = field(default_factory=ModelEndpoint)
    may_record: bool = True
    retry: RetryPolicy = field(default_factory=RetryPolicy)  # the run's (--wsb-retries, --wsb-backoff)

    @property
    def label(self) -> str:
        """What the summary and results file call this run of the suite (its ``kind``)."""
        return SELFTEST if self.selftest else f"{self.mode}/{self.board}"


class CodeFamily(BenchmarkFamily):
    name = "code"

    def __init__(self, run: CodeRun | None = None) -> None:
        self.code_run = run or CodeRun()
        self.records_traffic = not self.code_run.selftest

    # ------------------------------------------------------------------ the run's configuration

    @classmethod
    def add_options(cls, options: FamilyOptions) -> None:
        options.add_value("--wsb-mode", "wsb_mode",
                          "code suites: retrieval (model-free probe, the ticket text as query) or agent (the fixed "
                          "agent; needs --wsb-model, OPENAI_BASE_URL, OPENAI_API_KEY) (default: retrieval)",
                          MODE_RETRIEVAL, metavar="MODE", choices=list(MODES))
        options.add_value("--wsb-board", "wsb_board",
                          "code suites: search (search only) or search-fetch (search and fetch pages) "
                          "(default: search)", BOARD_SEARCH, metavar="BOARD", choices=list(BOARDS))
        options.add_value("--wsb-model", "wsb_model", "code suites, agent mode: the chat model's name at "
                          "OPENAI_BASE_URL", "", metavar="NAME")
        options.add_flag("--wsb-selftest", "wsb_selftest",
                         "code suites: check the suite itself instead of a provider: every gold passes and every "
                         "starter fails (grounding off)")

    def configure(self, options: OptionReader, settings: Settings) -> "CodeFamily":
        mode = options.choice("wsb_mode", MODES)
        board = options.choice("wsb_board", BOARDS)
        model = options.value("wsb_model")
        selftest = options.flag("wsb_selftest")
        if mode == MODE_AGENT and not model and not selftest:
            raise ConfigurationError("--wsb-mode=agent needs --wsb-model (the model's name at OPENAI_BASE_URL)")
        return CodeFamily(CodeRun(mode=mode, board=board, model=model, selftest=selftest,
                                  endpoint=ModelEndpoint.from_environ(os.environ),
                                  may_record=settings.record_mode.may_record, retry=settings.retry))

    def variants(self, settings: Settings) -> tuple[str, ...]:
        return (SELFTEST,) if self.code_run.selftest else settings.providers

    def run_label(self, suite: Suite) -> str:
        return self.code_run.label

    def cassette_folder(self, variant: str) -> str:
        run = self.code_run
        if run.mode == MODE_AGENT:
            return f"{variant}/agent-{_slug(run.model)}-{run.board}"
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
        return (f" --wsb-mode=agent --wsb-model={run.model}" + args) if run.mode == MODE_AGENT else args

    def recognizes(self, record) -> str | None:
        """Files without a manifest: published rows, or a catalog whose first item has a task_id."""
        if isinstance(record, dict) and "task_id" in record and ({"ticket", "gold_code"} & set(record)):
            return ""
        if is_catalog(record) and record["items"] and isinstance(record["items"][0], dict) \
                and "task_id" in record["items"][0]:
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
        chat = ChatClient(run.endpoint.url_for(run.may_record), run.endpoint.api_key, retry=run.retry)
        try:
            return run_agent(task, ctx.provider, chat, run.model, run.board)
        finally:
            chat.close()

    def score(self, suite: Suite, case: Case, raw: RawResults, k: int) -> Score:
        run = self.code_run
        if run.selftest:
            return score_selftest(case.data)
        if run.mode == MODE_AGENT:
            return score_agent(case.data, raw)
        return score_retrieval(case.data, raw, k)

    def columns(self, kind: str, k: int) -> list[MetricColumn]:
        if kind == SELFTEST:
            return [MetricColumn("pass", "self-check"), MetricColumn("gold_pass", "gold passes"),
                    MetricColumn("starter_fail", "starter fails"), MetricColumn("needles", "needles/ticket")]
        common = [MetricColumn("pass", "solved"), MetricColumn("needle_recall", "needle recall"),
                  MetricColumn("needles_found", "needles found"), MetricColumn("needles", "needles/ticket"),
                  MetricColumn("searches", "searches"), MetricColumn("fetches", "fetches")]
        if kind.startswith(MODE_AGENT):
            return common + [MetricColumn("compiled", "compiled"), MetricColumn("turns", "turns"),
                             MetricColumn("tokens", "tokens"), MetricColumn("leaky_queries", "leaky queries")]
        return common + [MetricColumn("leaky_queries", "leaky queries")]


def _case(task: CodeTask) -> Case:
    vendor = re.sub(r"\W+", "_", task.vendor.lower()).strip("_") or "unknown"
    return Case(task.task_id, task, markers=("code", f"vendor_{vendor}"), keywords=(task.vendor,))


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._]+", "-", text).strip("-").lower() or "model"
