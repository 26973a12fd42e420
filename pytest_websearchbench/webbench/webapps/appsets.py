"""Every world's apps, by its name: what the server serves a world with, and what the verifier
re-renders a list read with."""

from __future__ import annotations

from pytest_websearchbench.webbench.webapps.apps import AppSet
from pytest_websearchbench.webbench.webapps.deskops import DESKOPS_APPS
from pytest_websearchbench.webbench.webapps.workplace import WORKPLACE_APPS

APPSETS: dict[str, AppSet] = {"workplace": WORKPLACE_APPS, "deskops": DESKOPS_APPS}
