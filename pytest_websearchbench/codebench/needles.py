"""Which tokens a code ticket's answer must contain (DESIGN §2.1 step 3), and where they came from.

Explicit needles are the row's ``required`` plus its ``query_forbidden``. A row without
``required`` gets needles derived from what ``gold_code`` has and ``starter_code`` lacks:
string-literal contents and identifiers of at least 4 characters (Python keywords are not
identifiers; docstrings are not literals the code uses) that are not a substring of the
starter — the grader matches substrings, so a token the starter already contains could not
tell the two apart. Derived needles keep the order they first appear in the gold code.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterable

from pytest_websearchbench.codebench.grader import MIN_NEEDLE_CHARS

REQUIRED = "required"
QUERY_FORBIDDEN = "query_forbidden"
DERIVED = "derived"


@dataclass(frozen=True)
class Needle:
    text: str
    source: str  # REQUIRED | QUERY_FORBIDDEN | DERIVED


def code_tokens(code: str) -> list[str]:
    """Identifiers and string-literal contents of ``code`` in source order (SyntaxError if it
    does not parse). Dotted names (``import a.b``) give each part."""
    tree = ast.parse(code)
    docstrings = _docstring_nodes(tree)
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        # an attribute's name ends its node (``a.b.name``): order it by where it ends
        where = ((node.end_lineno, node.end_col_offset) if isinstance(node, ast.Attribute)
                 else (getattr(node, "lineno", 0), getattr(node, "col_offset", 0)))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found.append((*where, node.value))
            continue
        for name in _names_of(node):
            found.extend((*where, part) for part in name.split(".") if part)
    found.sort(key=lambda t: (t[0], t[1]))
    return [text for _, _, text in found]


def _names_of(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.keyword):
        return [node.arg] if node.arg else []
    if isinstance(node, ast.alias):
        return [node.name] + ([node.asname] if node.asname else [])
    if isinstance(node, ast.ImportFrom):
        return [node.module] if node.module else []
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return list(node.names)
    if isinstance(node, ast.ExceptHandler):
        return [node.name] if node.name else []
    return []


def _docstring_nodes(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            value = first.value if isinstance(first, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                out.add(id(first.value))
    return out


def derive_needles(gold_code: str, starter_code: str) -> list[str]:
    """Tokens (≥4 chars) of the gold code that the starter code does not contain."""
    return list(dict.fromkeys(t for t in code_tokens(gold_code)
                              if len(t) >= MIN_NEEDLE_CHARS and t not in starter_code))


def case_needles(*, required: Iterable[str] | None, query_forbidden: Iterable[str] = (),
                 gold_code: str = "", starter_code: str = "") -> tuple[Needle, ...]:
    """The needles of one row, each with its origin: required (or derived) then query_forbidden,
    deduplicated (the first origin wins), shorter than 4 characters dropped."""
    first = ([Needle(t, REQUIRED) for t in required] if required is not None
             else [Needle(t, DERIVED) for t in derive_needles(gold_code, starter_code)])
    seen: dict[str, Needle] = {}
    for needle in [*first, *(Needle(t, QUERY_FORBIDDEN) for t in query_forbidden)]:
        if len(needle.text) >= MIN_NEEDLE_CHARS and needle.text not in seen:
            seen[needle.text] = needle
    return tuple(seen.values())
