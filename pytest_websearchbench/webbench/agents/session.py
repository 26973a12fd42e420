"""One agent's browser session: every action counted against the task's step budget and logged.

Model and program agents act only through a :class:`Session`. The action after the last allowed one
answers an error (and the session is then over: ``stopped = "budget"``); once the Decision has been
committed the task has ended, and later actions answer an error without being counted. A wall-clock
deadline (program agents) stops the session the same way (``stopped = "time"``).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from pytest_websearchbench.webbench.browsing.browser import Browser, Observation

#: why a session stopped: the agent finished on its own, the Decision ended the task, the step
#: budget or the wall clock ran out
FINISHED, DECIDED, BUDGET, TIME = "finished", "decided", "budget", "time"


def action_signature(action: dict[str, Any]) -> str:
    """An action as one canonical string (what looping compares)."""
    return json.dumps(action, sort_keys=True, ensure_ascii=False)


class Session:
    """A browser (text or chromium) with the episode's budget, deadline and log; thread-safe."""

    def __init__(
        self, browser: Browser, budget: int, decided: Callable[[], bool], deadline: float | None = None
    ) -> None:
        self.browser = browser
        self.budget = budget
        self._decided = decided  # the world server's own answer (its trace), never a file the agent reaches
        self.deadline = deadline  # time.monotonic() value, or None
        self.steps = 0
        self.stopped = FINISHED
        self.log: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    @property
    def over(self) -> bool:
        return self.stopped != FINISHED

    def act(self, action: Any) -> Observation:
        with self._lock:
            if not isinstance(action, dict):
                return self.browser.observe(error='an action is a JSON object such as {"action": "read"}')
            if self.stopped == DECIDED:
                return self.browser.observe(error="the task has ended: the Decision is recorded")
            if self.deadline is not None and time.monotonic() > self.deadline:
                self.stopped = TIME
            if self.stopped == TIME:
                return self.browser.observe(error="the episode's time limit is reached")
            if self.steps >= self.budget:
                self.stopped = BUDGET
                return self.browser.observe(
                    error=f"the step budget ({self.budget} actions) is spent; no further action is carried out"
                )
            observation = self.browser.act(action)
            self.steps += 1
            self.log.append(
                {
                    "step": self.steps,
                    "action": action.get("action"),
                    "target": action.get("url")
                    or action.get("text")
                    or action.get("name")
                    or action.get("id")
                    or action.get("key"),
                    "signature": action_signature(action),
                    "url": observation.url,
                    "status": observation.status,
                    **({"error": observation.error} if observation.error else {}),
                    **observation.shown(),
                }
            )
            if self._decided():
                self.stopped = DECIDED
            return observation
