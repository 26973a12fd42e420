"""TEST DOUBLE — a scripted judge model, not a model.

``JudgeDouble`` is the code family's loopback OpenAI-compatible double (``pytest_websearchbench.emulate.model.ScriptedModel``)
with a judge's policy: it reads the packet a Chat Completions request carries and answers
``{"grade": N}`` from a hidden answer key, (query, title) → grade. It can be told, per title, to
answer garbage (always, or only the first time), to take too long (a timeout), or to disagree
(a fixed grade of its own). Every request it received stays in ``requests`` for the blinding scan.

Run as a script it serves an answer key made from a grades file (the README walk-through's judge):
``python tests/lexbench/judge_double.py --answer-key suites/lexbench-sample/grades.jsonl --url-file judge.url``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "codebench"))
from pytest_websearchbench.emulate.model import Request, ScriptedModel  # noqa: E402


@contextmanager
def served_judge(monkeypatch: Any, answer_key: dict[tuple[str, str], int]) -> Iterator[JudgeDouble]:
    """A judge double with ``answer_key``, served as the judge's model endpoint (OPENAI_BASE_URL and a key)."""
    double = JudgeDouble(answer_key)
    monkeypatch.setenv("OPENAI_BASE_URL", double.start())
    monkeypatch.setenv("OPENAI_API_KEY", "sk-judge-SECRET-0123456789")
    try:
        yield double
    finally:
        double.stop()


class JudgeDouble(ScriptedModel):
    def __init__(self, answer_key: dict[tuple[str, str], int]) -> None:
        super().__init__(self._answer)
        self.answer_key = answer_key
        self.garbage: dict[str, str] = {}  # title → "always" | "once"
        self.slow: dict[str, float] = {}  # title → seconds before answering
        self.disagree: dict[str, int] = {}  # title → the grade it gives instead
        self.disagree_every = 0  # also one grade off on every n-th packet (by a digest of its text)
        self._seen_garbage: set[str] = set()
        self._lock = threading.Lock()
        self.in_flight = self.most_at_once = 0  # requests being answered, and the most there were at once

    @staticmethod
    def packet(request: Request) -> dict[str, Any]:
        user = request.body["messages"][1]["content"]
        return json.loads(user[user.index("{") :])

    def _answer(self, request: Request) -> dict[str, Any]:
        packet = self.packet(request)
        title = packet["title"]
        with self._lock:
            self.in_flight += 1
            self.most_at_once = max(self.most_at_once, self.in_flight)
        try:
            if title in self.slow:
                time.sleep(self.slow[title])
        finally:
            with self._lock:
                self.in_flight -= 1
        mode = self.garbage.get(title)
        with self._lock:
            first = title not in self._seen_garbage
            self._seen_garbage.add(title)
        if mode == "always" or (mode == "once" and first):
            return {"content": "Well, it depends on what the user wants; maybe a two?"}
        grade = self.disagree.get(title, self.answer_key[packet["query"], title])
        digest = int(hashlib.sha256(json.dumps(packet, sort_keys=True).encode()).hexdigest()[:8], 16)
        if self.disagree_every and digest % self.disagree_every == 0:
            grade = grade - 1 if grade > 1 else grade + 1
        return {"content": json.dumps({"grade": grade})}


def answer_key_from_grades(items: Path, grades: Path) -> dict[tuple[str, str], int]:
    queries = {}
    for line in items.read_text("utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            queries[record["id"]] = record["query"]
    key = {}
    for line in grades.read_text("utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            # a title shared by several pages (a mirror, a stale copy) answers with the best of their grades
            title = queries[record["query_id"]], record.get("title", "")
            key[title] = max(key.get(title, 0), record["grade"])
    return key


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the scripted judge double until killed.")
    parser.add_argument("--answer-key", required=True, help="a suite's grades file (titles → grades)")
    parser.add_argument("--url-file", required=True, help="where to write the base URL once serving")
    parser.add_argument("--disagree-every", type=int, default=0, help="one grade off on every n-th packet")
    args = parser.parse_args()
    grades = Path(args.answer_key)
    double = JudgeDouble(answer_key_from_grades(grades.with_name("items.jsonl"), grades))
    double.disagree_every = args.disagree_every
    url = double.start()
    Path(args.url_file).write_text(url, "utf-8")
    threading.Event().wait()


if __name__ == "__main__":
    main()
