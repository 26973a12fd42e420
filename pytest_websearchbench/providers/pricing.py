"""Prices per call: the adapters' list prices (USD per 1,000 requests), overridable by the user
(``core/policies.py`` parses the overrides).

``--wsb-price serper=0.3`` sets a provider's search price, ``--wsb-price tavily.fetch=1.6``
a fetch price (``NAME.search`` works too). A provider without a known price reports its
calls as *unpriced* rather than free.
"""

from __future__ import annotations


def call_cost(price_per_1k: float | None) -> float | None:
    """USD of one call at ``price_per_1k`` USD per 1,000 requests (None: unpriced)."""
    return None if price_per_1k is None else price_per_1k / 1000.0
