"""``--wsb-browser chromium``: the same actions and observation, carried out by a real headless Chromium.

Chromium (Debian's, through Playwright: its own browser download is not used) loads the pages,
clicks, types, selects, submits forms (``requestSubmit``: the browser builds and sends the form
data) and goes back through its history. The observation is built by the text browser's page rules
(:func:`~pytest_websearchbench.webbench.browsing.pageparse.parse`) applied to the DOM Chromium
holds after loading, so element ids, visible text and the 40-line window are the text browser's,
and an app that works in one works in the other. Each interactive element is tagged with its id in
the DOM (``data-wsb-id``, in the parser's order) so that an action reaches the element it names.

One Chromium process per worker process, started on first use and closed at exit; every episode
gets its own browser context (no cookie or cache crosses worlds). Playwright's sync API may be used only
from the thread that started its driver, so the driver has a thread of its own (``_Owner``) that makes
every page call of every episode: episodes on many threads (the live phase's, run/live/) each wait for
their own calls there, one call at a time.

With ``screenshots`` (``--wsb-screenshots``) each action's observation carries a small picture of the
viewport (``extra["screenshot"]``, a ``data:`` URL): JPEG at low quality, scaled down in Chromium itself,
a few kB each, so 100 steps stay well under a few MB in the results file and report.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import shutil
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future
from types import FrameType
from typing import Any

from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.webbench.browsing.browser import ActionError, Browser, Observation
from pytest_websearchbench.webbench.browsing.pageparse import Element, parse

CHROMIUM_ENV = "WSB_CHROMIUM"
DEFAULT_CHROMIUM = "/usr/bin/chromium"
INSTALL_HINT = "install it with: sudo apt-get install -y chromium (or set WSB_CHROMIUM to a chromium binary)"
TIMEOUT_MS = 15_000
#: the step screenshots: the viewport (Playwright's default) scaled by Chromium, and the JPEG quality
VIEWPORT = {"width": 1280, "height": 720}
SHOT_SCALE = 0.4
SHOT_QUALITY = 40
#: tags the parser's interactive elements, in document order (pageparse._Parser: links with href,
#: inputs that are not hidden, buttons, text areas, drop-downs), and gives back the DOM (one round trip)
_TAG_SCRIPT = """() => {
  const found = document.querySelectorAll('a[href], input, button, textarea, select');
  let n = 0;
  for (const el of found) {
    if (el.tagName === 'INPUT' && (el.getAttribute('type') || '').toLowerCase() === 'hidden') continue;
    n += 1;
    el.setAttribute('data-wsb-id', 'e' + n);
  }
  return [n, document.documentElement.outerHTML];
}"""

_shared: dict[str, Any] = {}
_starting = threading.Lock()


def chromium_path() -> str:
    return os.environ.get(CHROMIUM_ENV) or DEFAULT_CHROMIUM


def chromium_missing() -> str | None:
    """Why Chromium cannot be driven here (None: it can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install 'playwright>=1.40')"
    path = chromium_path()
    if not (os.path.isfile(path) and os.access(path, os.X_OK)) and shutil.which(path) is None:
        return f"no chromium at {path}; {INSTALL_HINT}"
    return None


class _Owner:
    """The thread that owns the process's Playwright driver and its one Chromium, and makes every call."""

    def __init__(self) -> None:
        self.calls: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = queue.SimpleQueue()
        self.browser: Any = None
        self._driver: Any = None
        self.thread = threading.Thread(target=self._serve, name="wsb-chromium", daemon=True)
        started: Future[None] = Future()
        self.thread.start()
        self.calls.put((lambda: None, started))
        started.result()  # the launch's own error, if it failed

    def _serve(self) -> None:
        from playwright.sync_api import sync_playwright

        launch_error: BaseException | None = None
        try:
            self._driver = sync_playwright().start()
            self.browser = self._driver.chromium.launch(
                executable_path=chromium_path(), headless=True, args=["--no-sandbox"]
            )
        except BaseException as exc:  # noqa: BLE001 - said to the caller that started it
            launch_error = exc
        while (job := self.calls.get()) is not None:
            fn, future = job
            if launch_error is not None:
                future.set_exception(launch_error)
                continue
            try:
                future.set_result(fn())
            except BaseException as exc:  # noqa: BLE001 - raised in the thread that asked
                future.set_exception(exc)
        for close in (self.browser.close if self.browser else None, self._driver.stop if self._driver else None):
            if close is not None:
                try:
                    close()
                except Exception:  # noqa: BLE001 (the driver is gone: each close says so in its own words)
                    pass

    def call(self, fn: Callable[[], Any]) -> Any:
        """``fn()`` made on the driver's thread; the caller waits for it (a Ctrl-C stops the wait)."""
        if threading.current_thread() is self.thread:
            return fn()
        future: Future[Any] = Future()
        self.calls.put((fn, future))
        return future.result()

    def stop(self) -> None:
        self.calls.put(None)
        self.thread.join(timeout=10)


def _owner() -> _Owner:
    """The process's Chromium and the thread that drives it, started on first use."""
    with _starting:
        if "owner" not in _shared:
            problem = chromium_missing()
            if problem:
                raise ConfigurationError(f"--wsb-browser chromium: {problem}")
            logging.getLogger("asyncio").addFilter(_driver_gone)
            _shared["owner"] = _Owner()
            atexit.register(close_shared)
    _note_interrupts()
    owner: _Owner = _shared["owner"]
    return owner


def close_shared() -> None:
    """Close Chromium and the driver; after a Ctrl-C (which reached the driver too) there is nothing left to
    close, and the run's own interrupted line is all the user needs to see."""
    owner = _shared.pop("owner", None)
    if owner is not None:
        owner.stop()


def _note_interrupts() -> None:
    """Remember a Ctrl-C: it reaches Chromium and its driver too, and when they die before Python's handler
    runs, the Playwright call the run waits in fails with 'Target closed' and the KeyboardInterrupt is lost
    in the driver's loop; every later episode would then error on a dead browser instead of the run stopping."""
    if threading.current_thread() is not threading.main_thread() or _shared.get("noting"):
        return
    _shared["noting"] = True
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # ignored or the default: nothing raises KeyboardInterrupt to lose
        return

    handler = previous  # (callable)

    def noted(signum: int, frame: FrameType | None) -> None:
        _shared["interrupted"] = True
        handler(signum, frame)

    signal.signal(signal.SIGINT, noted)


def _stop_if_interrupted() -> None:
    """Raise the KeyboardInterrupt a Playwright failure stood in for (see ``_note_interrupts``)."""
    if _shared.get("interrupted"):
        raise KeyboardInterrupt


def _driver_gone(record: logging.LogRecord) -> bool:
    """Drop asyncio's 'Future exception was never retrieved' for a driver that was killed (Ctrl-C reaches it
    first), and after a Ctrl-C its 'Task was destroyed but it is pending!' for a Playwright call the interrupt
    cut short (the loop never runs again to finish it): the interrupt is reported once, by pytest."""
    text = f"{record.exc_info[1] if record.exc_info else ''} {record.getMessage()}"
    if "Connection closed while reading from the driver" in text:
        return False
    return not (
        _shared.get("interrupted")
        and text.lstrip().startswith("Task was destroyed but it is pending!")
        and "playwright" in text
    )


class ChromiumBrowser(Browser):
    """The text browser's actions and observation over a page of the process's Chromium."""

    def __init__(self, base_url: str, screenshots: bool = False) -> None:
        super().__init__(base_url)
        self.screenshots = screenshots
        _stop_if_interrupted()
        self._owner = _owner()
        self._owner.call(self._open)

    def _open(self) -> None:
        self._context = self._owner.browser.new_context(java_script_enabled=True, viewport=VIEWPORT)
        self._context.set_default_timeout(TIMEOUT_MS)
        self.tab = self._context.new_page()
        # a favicon request would join the world's web trace (the text browser never asks for one); blocked
        # in the network layer, which a context route misses now and then
        self._cdp = self._context.new_cdp_session(self.tab)
        self._cdp.send("Network.enable")
        self._cdp.send("Network.setBlockedURLs", {"urls": ["*/favicon.ico"]})

    def close(self) -> None:
        from playwright.sync_api import Error as PlaywrightError

        try:
            self._owner.call(self._context.close)
        except PlaywrightError:
            _stop_if_interrupted()
            raise
        super().close()

    # ------------------------------------------------------------------------ actions
    def act(self, action: dict[str, Any]) -> Observation:
        """The action, carried out on the driver's thread (``_Owner``)."""
        _stop_if_interrupted()
        observation: Observation = self._owner.call(lambda: self._act(action))
        return observation

    def _act(self, action: dict[str, Any]) -> Observation:
        observation = super().act(action)
        if self.screenshots:
            observation.extra["screenshot"] = self._screenshot()
        return observation

    def _screenshot(self) -> str:
        """The viewport as a small JPEG ``data:`` URL (Chromium scales it: no image library needed)."""
        shot = self._cdp.send(
            "Page.captureScreenshot",
            {"format": "jpeg", "quality": SHOT_QUALITY, "clip": {"x": 0, "y": 0, **VIEWPORT, "scale": SHOT_SCALE}},
        )
        data: str = shot["data"]  # base64
        return "data:image/jpeg;base64," + data

    def navigate(self, url: str) -> Observation:
        target = self._absolute(url)
        return self._load(lambda: self.tab.goto(target, wait_until="domcontentloaded"), target)

    def click(self, element: Element) -> Observation:
        if element.kind == "link":
            target = self._absolute(element.href or "")  # refuses a link out of the world, as the text browser
            return self._load(lambda: self._navigating(lambda: self._node(element).click()), target)
        return super().click(element)  # a button: its form is submitted (_submit)

    def fill(self, element: Element, value: str) -> Observation:
        observation = super().fill(element, value)
        self._node(element).fill(value)
        return observation

    def select(self, element: Element, value: str) -> Observation:
        observation = super().select(element, value)
        self._node(element).select_option(value=self.values[element.id])
        return observation

    def scroll(self, direction: str) -> Observation:
        observation = super().scroll(direction)
        total = max(1, observation.total_lines)
        self.tab.evaluate(
            "f => window.scrollTo(0, f * document.documentElement.scrollHeight)", self.scroll_line / total
        )
        return observation

    def back(self) -> Observation:
        if not self.history:
            raise ActionError("no previous page")
        self.history.pop()
        return self._load(lambda: self.tab.go_back(wait_until="domcontentloaded"), "the previous page", remember=False)

    # ------------------------------------------------------------------------ internals
    def _submit(self, form_index: int, button: Element | None) -> Observation:
        if button is not None:
            return self._load(lambda: self._navigating(lambda: self._node(button).click()), "the form's target")
        return self._load(
            lambda: self._navigating(lambda: self.tab.evaluate("i => document.forms[i].requestSubmit()", form_index)),
            "the form's target",
        )

    def _navigating(self, act: Any) -> Any:
        with self.tab.expect_navigation(wait_until="domcontentloaded") as navigation:
            act()
        return navigation.value

    def _node(self, element: Element) -> Any:
        return self.tab.locator(f'[data-wsb-id="{element.id}"]')

    def _load(self, go: Any, what: str, remember: bool = True) -> Observation:
        from playwright.sync_api import Error as PlaywrightError

        previous = self.url
        try:
            response = go()
        except PlaywrightError as exc:
            _stop_if_interrupted()
            raise ActionError(f"could not load {what}: {str(exc).splitlines()[0]}") from None
        if remember and previous:
            self.history.append(previous)
        self.url = self.tab.url
        self.status = response.status if response is not None else 0
        tagged, html = self.tab.evaluate(_TAG_SCRIPT)
        self.page = parse("<!DOCTYPE html>" + html)
        if tagged != len(self.page.elements):  # the parser's rules and the tagging must agree, or ids mislead
            raise ActionError(
                f"{self.url}: Chromium has {tagged} interactive elements, the page rules {len(self.page.elements)}"
            )
        self.values, self.focus, self.scroll_line = {}, None, 0
        return self.observe()
