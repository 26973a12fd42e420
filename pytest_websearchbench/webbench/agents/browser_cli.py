"""``browser``: the command a program agent acts through (put on its PATH by the plugin).

    browser '{"action": "click", "text": "Deskline"}'       # one action as JSON
    browser click text=Deskline                              # the same, as name and key=value words
    browser --text navigate url=/deskline/escalations        # the observation as text instead of JSON
    browser < actions.jsonl                                  # JSON actions, one a line

Each action prints its observation (JSON: url, title, status, elements, text, lines, and error when
the action could not be carried out; ``--text``: the text browser's rendering). The exit status is 1
when an action answered an error — among them the action after the step budget is spent and any
action after the Decision was committed — else 0. The session is the plugin's (``WSB_BROWSER_SESSION``):
it counts every action against the task's step budget.

Standard library only, so each call starts fast.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from typing import Any

SESSION_ENV = "WSB_BROWSER_SESSION"


def parse_words(words: list[str]) -> dict[str, str]:
    """``click text=Deskline`` → ``{"action": "click", "text": "Deskline"}``."""
    action = {"action": words[0]}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep:
            raise ValueError(f"expected key=value, got {word!r}")
        action[key] = value
    return action


def send(session: str, action: object) -> dict[str, Any]:
    request = urllib.request.Request(
        session, data=json.dumps(action).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        observation: dict[str, Any] = json.loads(response.read())
        return observation


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    as_text = "--text" in args
    args = [a for a in args if a != "--text"]
    session = os.environ.get(SESSION_ENV)
    if not session:
        print(f"browser: {SESSION_ENV} is not set: this command works inside a WebBench episode", file=sys.stderr)
        return 2
    try:
        if args and args[0].lstrip().startswith("{"):
            actions = [json.loads(" ".join(args))]
        elif args:
            actions = [parse_words(args)]
        else:
            actions = [json.loads(line) for line in sys.stdin if line.strip()]
    except (ValueError, json.JSONDecodeError) as exc:
        print(f"browser: {exc}", file=sys.stderr)
        return 2
    status = 0
    for action in actions:
        try:
            answer = send(session, action)
        except (urllib.error.URLError, OSError) as exc:
            print(f"browser: the episode's session is gone ({exc})", file=sys.stderr)
            return 2
        print(answer["text"] + "\n" if as_text else json.dumps(answer["observation"]), flush=True)
        status = status or int("error" in answer["observation"])
    return status


if __name__ == "__main__":
    raise SystemExit(main())
