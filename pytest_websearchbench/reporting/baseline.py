"""Comparing a run with an earlier results file (``--wsb-baseline``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import ConfigurationError

ItemKey = tuple[str, str, str]  # (suite, case_id, provider)


def item_key(item: dict[str, Any]) -> ItemKey:
    return item["suite"], item["case_id"], item["provider"]


class Baseline:
    """The items of an earlier ``--wsb-json`` file, by (suite, case, provider)."""

    def __init__(self, items: dict[ItemKey, dict[str, Any]], path: str = "") -> None:
        self.items = items
        self.path = path

    @classmethod
    def load(cls, path: Path) -> "Baseline":
        try:
            data = json.loads(Path(path).read_text("utf-8"))
            items = {item_key(item): item for item in data["items"]}
        except FileNotFoundError:
            raise ConfigurationError(f"--wsb-baseline: {path} not found") from None
        except (ValueError, KeyError, TypeError) as exc:
            raise ConfigurationError(
                f"--wsb-baseline: {path} is not a pytest-websearchbench results file ({exc!r})") from None
        return cls(items, str(path))

    def regression(self, meta: dict[str, Any], passed: bool, value: float | None, metric: str,
                   tolerance: float) -> str | None:
        """Why this item regressed, or None: it passed before and fails now, or ``metric`` dropped too far."""
        old = self.items.get(item_key(meta))
        if old is None:
            return None
        old_value = (old.get("metrics") or {}).get(metric)
        values = f"{metric} {_fmt(old_value)} in the baseline, {_fmt(value)} now"
        if old.get("outcome") == "passed" and not passed:
            return f"passed in the baseline, fails now ({values})"
        if old_value is not None and value is not None and old_value - value > tolerance:
            return f"{values}: dropped by {old_value - value:.4f} > tolerance {tolerance}"
        return None

    def paired_values(self, key_values: dict[ItemKey, float], metric: str) -> tuple[list[float], list[float]]:
        """(baseline, current) values of ``metric`` for the items both runs scored."""
        old, new = [], []
        for key, value in sorted(key_values.items()):
            old_value = (self.items.get(key, {}).get("metrics") or {}).get(metric)
            if old_value is not None:
                old.append(old_value)
                new.append(value)
        return old, new


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"
