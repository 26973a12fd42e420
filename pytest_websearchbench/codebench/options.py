"""The code family's options: its own and the shared model options (its agent calls a model), with
the run modes, boards and budgets they name. A light module (it imports only the core): pytest lists
and checks them without importing the family."""

from __future__ import annotations

from pytest_websearchbench.core.options import MODEL_OPTIONS, REPEAT_OPTION, Option, number

MODE_RETRIEVAL = "retrieval"
MODE_AGENT = "agent"
MODES = (MODE_RETRIEVAL, MODE_AGENT)
BOARD_SEARCH = "search"
BOARD_SEARCH_FETCH = "search-fetch"
BOARDS = (BOARD_SEARCH, BOARD_SEARCH_FETCH)
#: command-line budget option → budget
BUDGET_OPTIONS = {"wsb_max_turns": "turns", "wsb_max_searches": "searches", "wsb_max_fetches": "fetches"}
HARNESS_BUDGETS = {"turns": 32, "searches": 5, "fetches": 5}

OPTIONS: tuple[Option, ...] = (
    Option(
        "--wsb-mode",
        "wsb_mode",
        f"code suites: {MODE_RETRIEVAL} (model-free probe, the ticket text as query) or {MODE_AGENT} (the "
        "harness's fixed agent; needs OPENAI_API_KEY, or OPENAI_BASE_URL for another server)",
        "MODE",
        MODE_RETRIEVAL,
        choices=MODES,
    ),
    Option(
        "--wsb-board",
        "wsb_board",
        f"code suites: {BOARD_SEARCH} (search only) or {BOARD_SEARCH_FETCH} (search and fetch pages)",
        "BOARD",
        BOARD_SEARCH,
        choices=BOARDS,
    ),
    *MODEL_OPTIONS,
    Option(
        "--wsb-system-prompt",
        "wsb_system_prompt",
        "code suites, agent mode: a file whose exact text replaces both boards' system prompts, or a .json file "
        "with 'system' (a text, or texts by board) and/or 'tools' (tool and parameter descriptions: "
        '{"web_search": {"description": ..., "parameters": {"query": ...}}}) (not comparable with the '
        "leaderboard)",
        "FILE",
        default_help="the harness's two",
        path=True,
    ),
    *(
        Option(
            f"--wsb-max-{budget}",
            ini,
            f"code suites, agent mode: {budget} per ticket (not comparable with the leaderboard)",
            "N",
            parse=number(minimum=1, whole=True, optional=True),
            default_help=f"the harness's, {HARNESS_BUDGETS[budget]}",
        )
        for ini, budget in BUDGET_OPTIONS.items()
    ),
    Option(
        "--wsb-ticket-budgets",
        "wsb_ticket_budgets",
        "code suites, agent mode: use each ticket's own budgets (a catalog's max_turns, max_searches, "
        "max_fetches; a row's budgets) where --wsb-max-* gives none; the harness passes its own 32/5/5 over them "
        "(not comparable with the leaderboard)",
        switch=True,
    ),
    Option(
        "--wsb-provider-retries",
        "wsb_provider_retries",
        "code suites, agent mode: retry failed searches and fetches by this plugin's policy (--wsb-retries, "
        "--wsb-backoff); the harness sends each once and shows the model the failure (not comparable with the "
        "leaderboard)",
        switch=True,
    ),
    REPEAT_OPTION,
    Option(
        "--wsb-code-json",
        "wsb_code_json",
        "code suites, agent mode: also write the results in the harness's own document shape (its eval.py "
        "--out) to PATH",
        "PATH",
        path=True,
    ),
    Option(
        "--wsb-strict-grader",
        "wsb_strict_grader",
        "code suites, agent mode: also grade each answer with the stricter reading (CommonMark fences, comment "
        "tokens, grounding required without cite_urls) and report its pass rate as a diagnostic; the verdict "
        "stays the judge's (the diagnostic is not comparable with the leaderboard)",
        switch=True,
    ),
    Option(
        "--wsb-selftest",
        "wsb_selftest",
        "code suites: check the suite itself instead of a provider: every gold passes and every starter fails "
        "(grounding off)",
        switch=True,
    ),
)
