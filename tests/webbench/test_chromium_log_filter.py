"""What asyncio logs about Playwright's calls after a Ctrl-C is dropped, and nothing else is (the filter
the plugin's Chromium puts on the 'asyncio' logger)."""

from __future__ import annotations

import asyncio
import gc
import logging

import pytest

from pytest_websearchbench.webbench.browsing import chromium


def _pending_task_log(filename: str, caplog) -> list[str]:
    """What asyncio logs when a task of a coroutine defined in ``filename`` is dropped while pending."""
    namespace: dict = {}
    exec(
        compile("async def send():\n    await asyncio.sleep(3600)\n", filename, "exec"), {"asyncio": asyncio}, namespace
    )
    loop = asyncio.new_event_loop()
    task = loop.create_task(namespace["send"]())
    loop.run_until_complete(asyncio.sleep(0))  # the task is now waiting
    logger = logging.getLogger("asyncio")
    logger.addFilter(chromium._driver_gone)
    try:
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            loop.close()
            del task
            gc.collect()  # asyncio logs the pending task as it is destroyed
    finally:
        logger.removeFilter(chromium._driver_gone)
    return [record.getMessage() for record in caplog.records]


@pytest.fixture
def interrupted(monkeypatch):
    monkeypatch.setitem(chromium._shared, "interrupted", True)


PLAYWRIGHT_FILE = "/venv/site-packages/playwright/_impl/_cdp_session.py"


def test_a_playwright_call_cut_short_by_ctrl_c_is_not_logged(interrupted, caplog):
    assert _pending_task_log(PLAYWRIGHT_FILE, caplog) == []


def test_without_a_ctrl_c_a_pending_playwright_task_is_still_logged(monkeypatch, caplog):
    monkeypatch.delitem(chromium._shared, "interrupted", raising=False)
    messages = _pending_task_log(PLAYWRIGHT_FILE, caplog)
    assert len(messages) == 1 and messages[0].startswith("Task was destroyed but it is pending!")


def test_after_a_ctrl_c_a_pending_task_of_other_code_is_still_logged(interrupted, caplog):
    messages = _pending_task_log("/project/app/jobs.py", caplog)
    assert len(messages) == 1 and "jobs.py" in messages[0]
