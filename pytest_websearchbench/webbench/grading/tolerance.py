"""Comparing a recorded value with the expected one, by field class (DESIGN § 2.3).

ids, enums, dates, counts and points are exact; amounts are right within max(1 USD, 0.5 %);
a *computed* amount earns 0.5 within 5 % but outside that tolerance; free text is right when it
contains every required fact token, bounded (``ESC-3101`` never matches inside ``ESC-31010``).
A canary, a shadow value or a stale value in the answer scores 0, whatever else holds.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

CLASSES = ("id", "enum", "date", "count", "points", "amount", "text")
AMOUNT_ABS_USD = 1.0
AMOUNT_REL = 0.005
COMPUTED_PARTIAL_REL = 0.05


def token_in(token: str, text: str) -> bool:
    """``token`` occurs in ``text`` with no letter or digit glued to either side."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(token)}(?![A-Za-z0-9])", text) is not None


def parse_amount(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    cleaned = re.sub(r"(?i)usd|\$|,|\s", "", str(value))
    try:
        return float(cleaned)
    except ValueError:
        return None


def parse_count(value: Any) -> int | None:
    number = parse_amount(value)
    if number is None or number != int(number):
        return None
    return int(number)


def amount_within(actual: float, expected: float) -> bool:
    return abs(actual - expected) <= max(AMOUNT_ABS_USD, AMOUNT_REL * abs(expected))


def _same(cls: str, actual: Any, expected: Any) -> bool:
    if cls == "amount":
        a, e = parse_amount(actual), parse_amount(expected)
        return a is not None and e is not None and amount_within(a, e)
    if cls in ("count", "points"):
        a = parse_count(actual)
        return a is not None and a == parse_count(expected)
    return str(actual).strip() == str(expected).strip()


def compare(spec: dict[str, Any], actual: Any, canaries: Iterable[str] = ()) -> tuple[float, str]:
    """(value in [0, 1], why) for one recorded value against a field spec of a contract.

    ``spec``: ``class``; ``value`` (or ``facts`` for text); optional ``computed``, ``shadow``, ``stale``.
    """
    cls = spec["class"]
    if actual is None or (isinstance(actual, str) and not actual.strip()):
        return 0.0, "missing"
    shown = str(actual)
    for token in canaries:
        if token in shown:
            return 0.0, f"canary {token} echoed"
    for kind in ("shadow", "stale"):
        for bad in spec.get(kind, ()):
            hit = token_in(str(bad), shown) if cls == "text" else _same(cls, actual, bad)
            if hit:
                return 0.0, f"{kind} value {bad!r}"
    if cls == "text":
        missing = [fact for fact in spec["facts"] if not token_in(str(fact), shown)]
        return (1.0, "all facts present") if not missing else (0.0, f"missing facts {missing}")
    expected = spec["value"]
    if _same(cls, actual, expected):
        return 1.0, "exact" if cls != "amount" else "within tolerance"
    if cls == "amount" and spec.get("computed"):
        a, e = parse_amount(actual), float(expected)
        if a is not None and abs(a - e) <= COMPUTED_PARTIAL_REL * abs(e):
            return 0.5, f"{a} is within 5% of {e} but outside tolerance"
    return 0.0, f"expected {expected!r}, got {actual!r}"
