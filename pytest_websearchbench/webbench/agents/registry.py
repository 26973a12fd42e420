"""Who can work a WebBench task (``--wsb-agent``): the routes (oracles and controls), the model agent,
program agents (``cmd:COMMAND``), and agents that plugins register through the
``pytest_websearchbench_add_agents`` hook::

    def pytest_websearchbench_add_agents(registry):
        registry.add("my-agent", MyAgent, help="my browser agent")

``MyAgent()`` is made once per episode; its ``work(ctx)`` acts only through ``ctx.act(action)``
(the text browser's actions; each counts against the step budget) and may return a JSON-able dict
that joins the episode's record. ``ctx`` also gives the brief, the workspace URL and the task.
"""

from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.webbench.agents.catalog import AGENTS as ROUTE_AGENTS
from pytest_websearchbench.webbench.agents.catalog import DESCRIPTIONS, bound_text
from pytest_websearchbench.webbench.agents.session import Session
from pytest_websearchbench.webbench.browsing.browser import Observation

MODEL = "model"
PROGRAM_PREFIX = "cmd:"


@dataclass
class EpisodeContext:
    """What an in-process agent gets for one episode.

    Examples:
        An agent reads ``ctx.brief``, acts through ``ctx.act`` (one step of ``ctx.budget`` each) and may return
        a JSON-able dict for the episode's record:

        ```python
        from pytest_websearchbench.api import EpisodeContext


        class SkimLauncher:
            def work(self, ctx: EpisodeContext) -> dict:
                launcher = ctx.act({"action": "navigate", "url": "/"})
                links = [element for element in launcher.elements if element["kind"] == "link"]
                if links and ctx.budget > 1:
                    ctx.act({"action": "click", "id": links[0]["id"]})
                return {"brief_words": len(ctx.brief.split()), "links_seen": len(links)}
        ```
    """

    task: Any  # harbor.Task
    session: Session
    base_url: str
    brief: str
    workdir: Path
    label: str  # suite/case[agent], for messages

    def act(self, action: dict[str, Any]) -> Observation:
        return self.session.act(action)

    @property
    def budget(self) -> int:
        return self.session.budget


@dataclass(frozen=True)
class Entry:
    name: str
    factory: Callable[[], Any]
    help: str = ""


@dataclass
class AgentRegistry:
    """Agent names → factories of objects with ``work(ctx)``; the routes are built in.

    Examples:
        The hook ``pytest_websearchbench_add_agents(registry)`` is handed the run's registry; the factory is
        called once per episode:

        >>> from pytest_websearchbench.api import AgentRegistry
        >>> class Idle:
        ...     def work(self, ctx):
        ...         return {"note": "read nothing"}
        >>> registry = AgentRegistry()
        >>> registry.add("idle", Idle, help="reads nothing, answers nothing")
        >>> registry.listing()[-1]
        ('idle', 'reads nothing, answers nothing')
        >>> registry.add("oracle", Idle)
        Traceback (most recent call last):
        ...
        pytest_websearchbench.core.exceptions.ConfigurationError: pytest_websearchbench_add_agents: cannot register
        an agent named 'oracle' (a built-in name, or not letters, digits, '.', '_', '-')
    """

    entries: dict[str, Entry] = field(default_factory=dict)

    def add(self, name: str, factory: Callable[[], Any], help: str = "") -> None:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name) or name in ROUTE_AGENTS or name == MODEL:
            raise ConfigurationError(
                f"pytest_websearchbench_add_agents: cannot register an agent named {name!r} "
                "(a built-in name, or not letters, digits, '.', '_', '-')"
            )
        if name in self.entries:
            raise ConfigurationError(f"pytest_websearchbench_add_agents: the agent {name!r} is registered twice")
        self.entries[name] = Entry(name, factory, help)

    def listing(self) -> list[tuple[str, str]]:
        """Every agent with a line of help: the routes (with the WebScore bound the suites' generator holds
        them to), the model agent, a program, then the plugins' agents."""
        return [
            *((name, f"{DESCRIPTIONS[name]} ({bound_text(name)})") for name in ROUTE_AGENTS),
            (MODEL, "a model through the browser (--wsb-model, --wsb-model-api; OPENAI_API_KEY, OPENAI_BASE_URL)"),
            (f"{PROGRAM_PREFIX}COMMAND", "a program of yours, given the brief and a browser, sandboxed"),
            *((entry.name, entry.help or "from a plugin") for entry in self.entries.values()),
        ]

    def known(self) -> tuple[str, ...]:
        return (*ROUTE_AGENTS, MODEL, f"{PROGRAM_PREFIX}COMMAND", *self.entries)

    def check(self, name: str) -> None:
        if name in ROUTE_AGENTS or name == MODEL or name in self.entries:
            return
        if name.startswith(PROGRAM_PREFIX):
            program_command(name)
            return
        raise ConfigurationError(f"--wsb-agent: unknown agent {name!r}; agents: {', '.join(self.known())}")


def program_command(name: str, base: Path | None = None) -> list[str]:
    """``cmd:./my_agent.sh --fast`` → the argv; the program must exist and be executable."""
    try:
        argv = shlex.split(name[len(PROGRAM_PREFIX) :])
    except ValueError as exc:
        raise ConfigurationError(f"--wsb-agent {name!r}: cannot split the command: {exc}") from None
    if not argv:
        raise ConfigurationError(f"--wsb-agent {name!r}: give a command after {PROGRAM_PREFIX!r}")
    program = argv[0]
    if "/" in program:
        path = (Path(base or Path.cwd()) / program).resolve()
        if not path.is_file():
            raise ConfigurationError(f"--wsb-agent {name!r}: no program at {path}")
        if not shutil.which(str(path)):
            raise ConfigurationError(f"--wsb-agent {name!r}: {path} is not executable (chmod +x)")
        argv[0] = str(path)
    elif shutil.which(program) is None:
        raise ConfigurationError(f"--wsb-agent {name!r}: {program!r} is not on PATH")
    # an argument that names a file here (``cmd:python3 agent.py``) names it wherever the program runs: the
    # episode's working folder is a fresh one, and the sandbox shows the program only the files it is given
    for index, arg in enumerate(argv[1:], start=1):
        if not arg.startswith("-") and (Path(base or Path.cwd()) / arg).is_file():
            argv[index] = str((Path(base or Path.cwd()) / arg).resolve())
    return argv


def variant_name(agent: str) -> str:
    """The name an agent's items carry (``wb-workplace-workplace-004-open-points-038e07-s1[cmd-my_agent-sh]``): ids and markers stay
    filesystem- and marker-safe, so ``cmd:./my_agent.sh`` becomes ``cmd-my_agent-sh``."""
    if not agent.startswith(PROGRAM_PREFIX):
        return agent
    words = shlex.split(agent[len(PROGRAM_PREFIX) :])
    text = " ".join([Path(words[0]).name, *words[1:]]) if words else ""
    return "cmd-" + (re.sub(r"[^A-Za-z0-9_]+", "-", text).strip("-") or "program")
