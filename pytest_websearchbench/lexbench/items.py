"""LexBench items: scenarios (with requirements) and factual questions, and their pytest cases."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pytest_websearchbench.core.family import Case
from pytest_websearchbench.lexbench.eligibility import Requirements

SCENARIO = "scenario"
FACTUAL = "factual"


@dataclass(frozen=True)
class Scenario:
    id: str
    query: str
    language: str
    family: str
    information_need: str = ""
    known_pages: tuple[str, ...] = ()
    requirements: Requirements = field(default_factory=Requirements)
    origin: str = ""
    provenance_kind: str = ""


@dataclass(frozen=True)
class FactualQuestion:
    id: str
    question: str
    answer: str
    supporting_urls: tuple[str, ...]
    language: str = ""


def scenario_from_record(record: dict[str, Any]) -> Scenario:
    req = record.get("requirements", {})
    return Scenario(
        id=record["id"],
        query=record["query"],
        language=record["language"],
        family=record["family"],
        information_need=record.get("information_need", ""),
        known_pages=tuple(record.get("known_pages", ())),
        requirements=Requirements(
            tuple(req.get("sites", ())), req.get("after"), req.get("before"), tuple(req.get("content_terms", ()))
        ),
        origin=record.get("origin", ""),
        provenance_kind=record.get("provenance_kind", ""),
    )


def scenario_case(scenario: Scenario) -> Case:
    family = scenario.family.replace("-", "_")
    return Case(
        scenario.id,
        scenario,
        markers=("lexbench", "scenario", f"lang_{scenario.language}", f"lexbench_{family}"),
        keywords=(scenario.family, scenario.language),
    )


def factual_case(record: dict[str, Any]) -> Case:
    question = FactualQuestion(
        record["id"], record["question"], record["answer"], tuple(record["supporting_urls"]), record.get("language", "")
    )
    markers = ("lexbench", "factual") + ((f"lang_{question.language}",) if question.language else ())
    return Case(question.id, question, markers=markers)
