"""Blind grading packets: one per (query, distinct preview), holding only what a grader may see —
the query, the information need, the preview's title and snippet, and its date when the scenario has
a time window. No provider, rank or URL.

A URL written out in a title or snippet (some providers put the link in the snippet) is shown as
``[link]``. A packet's id is a digest of the suite, the query id and the preview's text, so it says nothing a
grader could use (the same preview of two URLs is one packet, graded once); the packets are shuffled
with a fixed seed so their order does not follow any provider's ranking either.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass

from pytest_websearchbench.lexbench.pool import QueryPool

DEFAULT_SEED = 14
_URL = re.compile(r"(?i)\b(?:https?://|www\.)\S+")


@dataclass(frozen=True)
class Packet:
    id: str
    query_id: str
    query: str
    information_need: str
    title: str
    snippet: str
    date: str | None = None  # only where the scenario has a time window

    def shown(self) -> dict[str, str]:
        """The fields a grader sees (and a model is sent), in a fixed order."""
        fields = {
            "query": self.query,
            "information_need": self.information_need,
            "title": self.title,
            "snippet": self.snippet,
        }
        if self.date is not None:
            fields["date"] = self.date
        return fields


@dataclass(frozen=True)
class PacketSet:
    """The shuffled packets and, kept apart, the pooled pages (query id, normalised URL) each stands for."""

    packets: tuple[Packet, ...]
    targets: dict[str, tuple[tuple[str, str], ...]]

    def by_id(self) -> dict[str, Packet]:
        return {p.id: p for p in self.packets}


def blind(text: str) -> str:
    return _URL.sub("[link]", text)


def packet_id(suite: str, query_id: str, title: str, snippet: str, date: str | None) -> str:
    text = "\0".join([suite, query_id, title, snippet, date or ""])
    return "pk-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def build_packets(
    suite: str, pools: dict[str, QueryPool], *, seed: int = DEFAULT_SEED, calibrate: bool = False
) -> PacketSet:
    """Packets for every preview left to grade; with ``calibrate`` also for the eligible previews of
    pages already graded (to measure a model judge against those grades)."""
    packets: dict[str, Packet] = {}
    targets: dict[str, list[tuple[str, str]]] = {}
    for qid, pool in pools.items():
        scenario = pool.scenario
        dated = bool(scenario.requirements.after or scenario.requirements.before)
        for entry in pool.entries.values():
            previews = entry.to_grade
            if calibrate and entry.grade is not None:
                previews = [p for p in entry.previews if not entry.violations.get(p)]
            for preview in previews:
                title, snippet = blind(preview.title), blind(preview.snippet)
                date = (preview.published or "unknown") if dated else None
                pid = packet_id(suite, qid, title, snippet, date)
                packets.setdefault(
                    pid, Packet(pid, qid, scenario.query, scenario.information_need, title, snippet, date)
                )
                if (qid, entry.key) not in targets.setdefault(pid, []):
                    targets[pid].append((qid, entry.key))
    ordered = sorted(packets.values(), key=lambda p: p.id)
    random.Random(seed).shuffle(ordered)
    return PacketSet(tuple(ordered), {pid: tuple(t) for pid, t in targets.items()})
