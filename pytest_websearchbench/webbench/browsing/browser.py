"""The agent's only surface: a text browser over httpx and an HTML parser.

Actions (JSON objects, the same from Python and from the CLI)::

    {"action": "navigate", "url": "/deskline/escalations"}
    {"action": "click", "id": "e12"}            # or "text": "ESC-3101" (a link's or button's text)
    {"action": "fill", "id": "e5", "value": "Norvale Freight"}   # or "name": "q"
    {"action": "select", "name": "decision", "value": "issue"}
    {"action": "press", "key": "Enter"}         # submits the form of the last filled field; PageDown/PageUp scroll
    {"action": "scroll", "direction": "down"}
    {"action": "back"}
    {"action": "read"}                          # the whole page text, no request

Each action answers with an observation: URL, title, HTTP status, interactive elements with ids,
the visible text (a window of the page; ``scroll`` moves it, ``read`` gives all of it), and an
``error`` when the action could not be carried out (nothing happened then).

    python -m pytest_websearchbench.webbench.browsing.browser --base-url http://127.0.0.1:8765 < actions.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

import httpx

from pytest_websearchbench.core.tls import client_tls
from pytest_websearchbench.webbench.browsing.pageparse import Element, ParsedPage, parse

ACTIONS = ("navigate", "click", "fill", "select", "press", "scroll", "back", "read")
VIEWPORT_LINES = 40


class ActionError(Exception):
    """The action names no element, or an element of the wrong kind; the page is unchanged."""


@dataclass
class Observation:
    """What the browser shows after an action: the page's address, title and status, its numbered elements
    (links, fields, buttons: what an action names), and a window of its text lines; ``error`` says why an
    action was not carried out (the page is then unchanged).

    Examples:
        What ``EpisodeContext.act`` returns; ``to_text`` is how a model agent is shown it:

        >>> from pytest_websearchbench.api import Observation
        >>> seen = Observation(
        ...     url="http://127.0.0.1:8000/",
        ...     title="Launcher",
        ...     status=200,
        ...     elements=[{"id": "e1", "kind": "link", "text": "Tickets"}, {"id": "e2", "kind": "input", "name": "q"}],
        ...     text="Welcome back.",
        ...     total_lines=1,
        ... )
        >>> print(seen.to_text())
        URL: http://127.0.0.1:8000/
        Title: Launcher (HTTP 200)
        Elements:
          [e1] link Tickets
          [e2] input q
        Text (lines 1-1 of 1):
        Welcome back.
    """

    url: str
    title: str
    status: int
    elements: list[dict[str, Any]]
    text: str
    first_line: int = 0
    total_lines: int = 0
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out = {
            "url": self.url,
            "title": self.title,
            "status": self.status,
            "elements": self.elements,
            "text": self.text,
            "lines": [self.first_line, self.total_lines],
        }
        if self.error:
            out["error"] = self.error
        return out

    def to_text(self) -> str:
        """A compact rendering for language models and people."""
        lines = [f"URL: {self.url}", f"Title: {self.title} (HTTP {self.status})"]
        if self.error:
            lines.append(f"Error: {self.error}")
        lines.append("Elements:")
        for e in self.elements:
            detail = e.get("text") or e.get("label") or e.get("name") or ""
            value = f" = {e['value']!r}" if "value" in e else ""
            options = f" options {e['options']}" if "options" in e else ""
            lines.append(f"  [{e['id']}] {e['kind']} {detail}{value}{options}")
        lines.append(
            f"Text (lines {self.first_line + 1}-{min(self.total_lines, self.first_line + VIEWPORT_LINES)}"
            f" of {self.total_lines}):"
        )
        return "\n".join(lines) + "\n" + self.text

    def shown(self) -> dict[str, Any]:
        """What a step's record keeps for the episode's transcript: the text the agent received and, when
        the browser takes them, the page's screenshot (``extra``)."""
        return {"observation": self.to_text(), **{k: self.extra[k] for k in ("screenshot",) if k in self.extra}}


class Browser:
    def __init__(self, base_url: str, client: httpx.Client | None = None, timeout: float = 10.0) -> None:
        self.base_url = base_url.rstrip("/")
        self._own_client = client is None
        self.client = client or httpx.Client(
            # httpx's own transport: no cassette's tap sees the world's pages (cassettes/transport.py)
            timeout=timeout,
            follow_redirects=True,
            transport=httpx.HTTPTransport(verify=client_tls()),
        )
        self.url = ""
        self.status = 0
        self.page = ParsedPage("", "", [], [])
        self.history: list[str] = []
        self.values: dict[str, str] = {}  # element id → value typed or selected on this page
        self.focus: str | None = None
        self.scroll_line = 0

    def close(self) -> None:
        if self._own_client:
            self.client.close()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------------------ actions
    def act(self, action: dict[str, Any]) -> Observation:
        """Carry out one action; a bad action gives an observation with ``error`` (and changes nothing)."""
        name = action.get("action")
        try:
            if name not in ACTIONS:
                raise ActionError(f"unknown action {name!r}; actions: {', '.join(ACTIONS)}")
            if name == "navigate":
                return self.navigate(_required(action, "url"))
            if name == "click":
                return self.click(self._target(action))
            if name == "fill":
                return self.fill(self._target(action), str(action.get("value", "")))
            if name == "select":
                return self.select(self._target(action), str(_required(action, "value")))
            if name == "press":
                return self.press(str(action.get("key", "Enter")))
            if name == "scroll":
                return self.scroll(str(action.get("direction", "down")))
            if name == "back":
                return self.back()
            return self.read()
        except ActionError as exc:
            return self.observe(error=str(exc))

    def navigate(self, url: Any) -> Observation:
        if not isinstance(url, str):
            raise ActionError(f"navigate needs 'url' as text, not {type(url).__name__}")
        return self._request("GET", self._absolute(url))

    def click(self, element: Element) -> Observation:
        if element.kind == "link":
            return self._request("GET", self._absolute(element.href or ""))
        if element.kind == "button":
            if element.form is None:
                raise ActionError(f"button {element.id} belongs to no form")
            return self._submit(element.form, element)
        raise ActionError(f"{element.id} is a {element.kind}; click links and buttons, fill or select the rest")

    def fill(self, element: Element, value: str) -> Observation:
        if element.kind not in ("input", "textarea"):
            raise ActionError(f"{element.id} is a {element.kind}; fill text inputs and text areas")
        self.values[element.id] = value
        self.focus = element.id
        return self.observe()

    def select(self, element: Element, value: str) -> Observation:
        if element.kind != "select":
            raise ActionError(f"{element.id} is a {element.kind}; select works on drop-downs")
        for option_value, label in element.options:
            if value in (option_value, label):
                self.values[element.id] = option_value
                self.focus = element.id
                return self.observe()
        raise ActionError(f"{element.id} has no option {value!r}; options: {[v for v, _ in element.options]}")

    def press(self, key: str) -> Observation:
        if key in ("PageDown", "PageUp", "Home", "End"):
            return self.scroll({"PageDown": "down", "PageUp": "up", "Home": "top", "End": "bottom"}[key])
        if key != "Enter":
            raise ActionError(f"unsupported key {key!r}; keys: Enter, PageDown, PageUp, Home, End")
        focused = self.page.element(self.focus) if self.focus else None
        if focused is not None and focused.form is not None:
            return self._submit(focused.form, None)
        if len(self.page.forms) == 1:
            return self._submit(0, None)
        raise ActionError("Enter submits the form of the last filled field; fill a field first")

    def scroll(self, direction: str) -> Observation:
        total = len(self.page.text.splitlines())
        last = max(0, total - VIEWPORT_LINES)
        moves = {
            "down": self.scroll_line + VIEWPORT_LINES,
            "up": self.scroll_line - VIEWPORT_LINES,
            "top": 0,
            "bottom": last,
        }
        if direction not in moves:
            raise ActionError(f"scroll direction must be one of {', '.join(moves)}")
        self.scroll_line = min(max(0, moves[direction]), last)
        return self.observe()

    def back(self) -> Observation:
        if not self.history:
            raise ActionError("no previous page")
        return self._request("GET", self.history.pop(), remember=False)

    def read(self) -> Observation:
        return self.observe(full=True)

    # ------------------------------------------------------------------------ internals
    def observe(self, *, full: bool = False, error: str | None = None) -> Observation:
        lines = self.page.text.splitlines()
        shown = lines if full else lines[self.scroll_line : self.scroll_line + VIEWPORT_LINES]
        elements = []
        for element in self.page.elements:
            data = element.to_dict()
            if element.id in self.values:
                data["value"] = self.values[element.id]
            elements.append(data)
        return Observation(
            self._relative(self.url),
            self.page.title,
            self.status,
            elements,
            "\n".join(shown),
            0 if full else self.scroll_line,
            len(lines),
            error,
        )

    def _target(self, action: dict[str, Any]) -> Element:
        if "id" in action:
            element = self.page.element(str(action["id"]))
            if element is None:
                raise ActionError(f"no element {action['id']!r} on this page")
            return element
        if "name" in action:
            found = [e for e in self.page.elements if e.name == action["name"] and e.kind != "button"]
            what = f"field named {action['name']!r}"
        elif "text" in action:
            found = [e for e in self.page.elements if e.kind in ("link", "button") and e.text == action["text"]]
            what = f"link or button with the text {action['text']!r}"
        else:
            raise ActionError(f"{action.get('action')} needs an element: give 'id', 'name' or 'text'")
        if not found:
            raise ActionError(f"no {what} on this page")
        return found[0]

    def _submit(self, form_index: int, button: Element | None) -> Observation:
        form = self.page.forms[form_index]
        pairs: list[tuple[str, str]] = list(form.hidden)
        for element_id in form.controls:
            element = self.page.element(element_id)
            if element is None or element.kind == "button" or not element.name:
                continue
            pairs.append((element.name, self.values.get(element.id, element.value)))
        if button is not None and button.name:
            pairs.append((button.name, button.text))
        target = self._absolute(form.action or self.url)
        if form.method == "post":
            return self._request("POST", target, data=pairs)
        return self._request("GET", target.split("?")[0] + ("?" + urlencode(pairs) if pairs else ""))

    def _request(
        self, method: str, url: str, data: list[tuple[str, str]] | None = None, remember: bool = True
    ) -> Observation:
        try:
            if method == "POST":
                response = self.client.post(
                    url,
                    content=urlencode(data or []).encode(),
                    headers={"Content-Type": "application/x-www-form-urlencoded"},
                )
            else:
                response = self.client.get(url)
        except (httpx.HTTPError, httpx.InvalidURL) as exc:  # InvalidURL: too long, a NUL…
            raise ActionError(f"could not load {_shown(url)}: {exc}") from None
        if remember and self.url:
            self.history.append(self.url)
        self.url = str(response.url)
        self.status = response.status_code
        self.page = parse(response.text)
        self.values, self.focus, self.scroll_line = {}, None, 0
        return self.observe()

    def _absolute(self, url: str) -> str:
        try:
            if urlsplit(url).scheme:
                if not url.startswith(self.base_url):
                    raise ActionError(f"{_shown(url)} is outside this world ({self.base_url})")
                return url
            return urljoin(self.url or self.base_url + "/", url)
        except ValueError as exc:  # urllib's: an unclosed IPv6 bracket…
            raise ActionError(f"{_shown(url)} is not a URL: {exc}") from None

    def _relative(self, url: str) -> str:
        return url[len(self.base_url) :] if url.startswith(self.base_url) else url


def _shown(url: str, limit: int = 200) -> str:
    """A URL as an error names it: cut, since a model may send any length."""
    return url if len(url) <= limit else url[:limit] + f"… ({len(url):,} characters)"


def _required(action: dict[str, Any], key: str) -> Any:
    if key not in action:
        raise ActionError(f"{action.get('action')} needs {key!r}")
    return action[key]


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    parser = argparse.ArgumentParser(prog=prog, description="Drive a WebBench world with JSON actions, one per line.")
    parser.add_argument("--base-url", required=True, help="the world server, e.g. http://127.0.0.1:8765")
    parser.add_argument(
        "--actions",
        type=argparse.FileType("r"),
        default=sys.stdin,
        help="JSON lines of actions (default: standard input)",
    )
    parser.add_argument("--text", action="store_true", help="print observations as text instead of JSON")
    args = parser.parse_args(argv)
    try:
        return _browse(args.base_url, args.actions, args.text)
    except ActionError as exc:  # the world server cannot be reached (a bad --base-url): one line, not a traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"error: the actions are not UTF-8 text ({exc.reason} at byte {exc.start})", file=sys.stderr)
        return 2


def _browse(base_url: str, actions: Any, text: bool) -> int:
    with Browser(base_url) as browser:
        browser.navigate("/")
        for number, line in enumerate(actions, start=1):
            if not line.strip():
                continue
            try:
                action = json.loads(line)
            except json.JSONDecodeError as exc:
                print(json.dumps({"error": f"line {number}: not JSON: {exc.msg}"}), flush=True)
                return 2
            observation = browser.act(action)
            print(observation.to_text() + "\n" if text else json.dumps(observation.to_dict()), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
