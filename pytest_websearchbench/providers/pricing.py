"""Prices per call: the adapters' list prices (USD per 1,000 requests), overridable by the user.

``--wsb-price serper=0.3`` sets a provider's search price, ``--wsb-price tavily.fetch=1.6``
a fetch price (``NAME.search`` works too). A provider without a known price reports its
calls as *unpriced* rather than free.
"""

from __future__ import annotations

from pytest_websearchbench.core.exceptions import ConfigurationError

KINDS = ("search", "fetch")


def parse_prices(text: str) -> dict[str, dict[str, float]]:
    """``serper=1.0,tavily.fetch=1.6`` → {"serper": {"search": 1.0}, "tavily": {"fetch": 1.6}}."""
    prices: dict[str, dict[str, float]] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        name, dot, kind = key.strip().partition(".")
        kind = kind if dot else "search"
        if not sep or not name or kind not in KINDS:
            raise ConfigurationError(
                f"--wsb-price: {part!r} should read NAME=USD or NAME.fetch=USD (USD per 1,000 requests), "
                "e.g. serper=1.0")
        try:
            usd = float(value)
        except ValueError:
            raise ConfigurationError(f"--wsb-price: {value.strip()!r} in {part!r} is not a number") from None
        if usd < 0:
            raise ConfigurationError(f"--wsb-price: a price cannot be negative ({part!r})")
        prices.setdefault(name, {})[kind] = usd
    return prices


def call_cost(price_per_1k: float | None) -> float | None:
    """USD of one call at ``price_per_1k`` USD per 1,000 requests (None: unpriced)."""
    return None if price_per_1k is None else price_per_1k / 1000.0
