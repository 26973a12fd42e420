"""WebBench's options: its own and the shared model options (its model agent calls a model). A light
module (it imports only the core): pytest lists and checks them without importing the family."""

from __future__ import annotations

import re

from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.options import MODEL_OPTIONS, REPEAT_OPTION, Option, names, number

BROWSERS = ("text", "chromium")
SANDBOX_MODES = ("auto", "require", "off")  # agents.sandbox says what each means
NETWORK_MODES = ("world", "host")  # agents.sandbox says what each means
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _variables(value: str, flag: str) -> tuple[str, ...]:
    """Environment variables' names, comma-separated (none: the default)."""
    found = tuple(dict.fromkeys(name.strip() for name in value.split(",") if name.strip()))
    for name in found:
        if not _VARIABLE.fullmatch(name):
            raise ConfigurationError(f"{flag}: {name!r} is not an environment variable's name")
    return found


OPTIONS: tuple[Option, ...] = (
    Option(
        "--wsb-agent",
        "wsb_agent",
        "WebBench: who works each task: oracle, alt-oracle, a control, model (the model agent: --wsb-model, "
        "--wsb-model-api, OPENAI_BASE_URL), cmd:COMMAND (a program acting through the browser command) or an "
        "agent a plugin registered; comma-separated",
        "NAME[,NAME...]",
        "oracle",
        names("agent"),
    ),
    Option(
        "--wsb-browser",
        "wsb_browser",
        "WebBench: the agents' browser: text (the text browser) or chromium (headless Chromium through "
        "Playwright; same actions and observation)",
        "BROWSER",
        "text",
        choices=BROWSERS,
    ),
    Option(
        "--wsb-screenshots",
        "wsb_screenshots",
        "WebBench: with --wsb-browser chromium, keep a small screenshot of every step in the results file and "
        "the HTML report's drill-down",
        switch=True,
    ),
    REPEAT_OPTION,
    Option(
        "--wsb-agent-time-limit",
        "wsb_agent_time_limit",
        "WebBench: wall-clock seconds a program agent (cmd:) may run per episode before it is killed",
        "SECONDS",
        "600",
        number(minimum=0.001),
    ),
    Option(
        "--wsb-agent-env",
        "wsb_agent_env",
        "WebBench: environment variables a program agent (cmd:) is given although they hold a key (its own "
        "model's, e.g. OPENAI_API_KEY); every other key variable is left out of its environment, and what it "
        "prints is scrubbed of these too",
        "NAME[,NAME...]",
        "",
        _variables,
    ),
    Option(
        "--wsb-sandbox",
        "wsb_sandbox",
        "WebBench: how program agents (cmd:) are confined: auto (in bubblewrap where it runs, else unsandboxed "
        "and the summary says so), require (a usage error where bwrap cannot run) or off",
        "MODE",
        "auto",
        choices=SANDBOX_MODES,
    ),
    Option(
        "--wsb-agent-net",
        "wsb_agent_net",
        "WebBench: the network a sandboxed program agent (cmd:) reaches: world (a network namespace of its own "
        "where only its world and browser session are reachable) or host (the machine's network, reported as "
        "UNSANDBOXED NETWORK)",
        "MODE",
        "world",
        choices=NETWORK_MODES,
    ),
    *MODEL_OPTIONS,
)
