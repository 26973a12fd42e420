"""The judge run's transcript (``wsb-lexbench judge … --transcript judge.html``): one self-contained page,
each packet in the order it was sent — what the model was shown, the pages it stands for, the prompt's
sha256, the raw answer (both answers when it was asked again), the parsed grade or why it is unjudged, and
what it cost. Jinja2 with autoescape; every value is scrubbed of the key (``core.secrets``) before it is
escaped and the page after; the page has no script and loads nothing."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TypedDict

import jinja2

from pytest_websearchbench.core.atomic import write_text_atomic
from pytest_websearchbench.core.secrets import scrub
from pytest_websearchbench.lexbench.judge import Verdict
from pytest_websearchbench.lexbench.packets import Packet, PacketSet


class _Row(TypedDict):
    """A packet as the template shows it."""

    packet: Packet
    verdict: Verdict | None
    targets: tuple[tuple[str, str], ...]  # (query id, page key) of the pages it stands for


def render_judge_transcript(
    model: str, packets: PacketSet, verdicts: dict[str, Verdict], secrets: Iterable[str] = ()
) -> str:
    secrets = [s for s in secrets if s]
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=lambda value: scrub(str(value), secrets, echoes=True) if value is not None else "",
    )
    rows: list[_Row] = [
        {"packet": packet, "verdict": verdicts.get(packet.id), "targets": packets.targets.get(packet.id, ())}
        for packet in packets.packets
    ]
    graded = sum(1 for row in rows if row["verdict"] is not None and row["verdict"].grade is not None)
    page = env.get_template("judge_transcript.html.j2").render(model=model, rows=rows, graded=graded)
    return scrub(page, secrets, echoes=True)


def write_judge_transcript(
    path: Path, model: str, packets: PacketSet, verdicts: dict[str, Verdict], secrets: Iterable[str] = ()
) -> int:
    """Write the transcript atomically; its size in bytes."""
    text = render_judge_transcript(model, packets, verdicts, secrets)
    write_text_atomic(path, text)
    return len(text.encode("utf-8"))
