"""Which tokens a code ticket's answer must contain (DESIGN §2.1 step 4), and where they came from.

Explicit needles are the row's ``required`` plus its ``query_forbidden``. A row without
``required`` gets needles derived from the API surface the gold code adds over the starter:

* names it calls (``desk.incidents.mark_resolved(...)`` → ``mark_resolved``) and attribute names
  it reads (``payables``, ``next_page_cursor``);
* keyword names it passes (``resolution_code=``);
* literals: strings (f-string parts and dict keys included; docstrings excluded) and numbers;
* the modules and names it imports.

Never a name the code binds itself — its functions, classes, parameters, variables, loop and
``with``/``except`` targets, import aliases, attributes it assigns, keywords of its own
functions — so a local ``payload`` or ``file_path`` is no needle. A token the starter already
contains (as a substring: the grader matches substrings) cannot tell the two apart and is dropped;
so are the ones the grader itself drops (shorter than 4 characters). Derived needles keep the
order they first appear in the gold code.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from pytest_websearchbench.codebench.grader import usable_needles

REQUIRED = "required"
QUERY_FORBIDDEN = "query_forbidden"
DERIVED = "derived"


@dataclass(frozen=True)
class Needle:
    text: str
    source: str  # REQUIRED | QUERY_FORBIDDEN | DERIVED


def code_tokens(code: str) -> list[str]:
    """The API surface of ``code`` (module docstring) in source order, repeats included
    (SyntaxError if it does not parse)."""
    tree = ast.parse(code)
    bound, own_callables, own_attributes = _bindings(tree)
    docstrings = _docstring_nodes(tree)
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        for where, token in _tokens_of(node, bound, own_callables, own_attributes, docstrings):
            found.append((*where, token))
    found.sort(key=lambda t: (t[0], t[1]))
    return [text for _, _, text in found]


def _tokens_of(
    node: ast.AST, bound: set[str], own_callables: set[str], own_attributes: set[str], docstrings: set[int]
) -> Iterator[tuple[tuple[int, int], str]]:
    start = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.attr not in own_attributes:
        # an attribute's name ends its node (``a.b.name``): order it by where it ends
        yield (node.end_lineno or 0, node.end_col_offset or 0), node.attr
    elif isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id not in bound:
            yield start, node.func.id
        if not (isinstance(node.func, ast.Name) and node.func.id in own_callables):
            for keyword in node.keywords:
                if keyword.arg:
                    yield (keyword.lineno, keyword.col_offset), keyword.arg
    elif isinstance(node, ast.Constant) and id(node) not in docstrings:
        if isinstance(node.value, str):
            yield start, node.value
        elif isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            yield start, repr(node.value)
    elif isinstance(node, ast.Import):
        for alias in node.names:
            yield from ((start, part) for part in alias.name.split("."))
    elif isinstance(node, ast.ImportFrom):
        yield from ((start, part) for part in (node.module or "").split(".") if part)
        yield from ((start, alias.name) for alias in node.names if alias.name != "*")


def _bindings(tree: ast.AST) -> tuple[set[str], set[str], set[str]]:
    """Names the code binds; the functions and classes it defines; the attributes it assigns."""
    bound: set[str] = set()
    own_callables: set[str] = set()
    own_attributes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own_callables.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            own_attributes.add(node.attr)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.alias) and node.asname:
            bound.add(node.asname)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
    return bound | own_callables, own_callables, own_attributes


def _docstring_nodes(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            value = first.value if isinstance(first, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                out.add(id(value))
    return out


def derive_needles(gold_code: str, starter_code: str) -> list[str]:
    """The API surface gold adds over starter, as the grader would use it (stripped, ≥4 characters, once)."""
    return list(usable_needles(t for t in code_tokens(gold_code) if t.strip() and t.strip() not in starter_code))


def case_needles(
    *, required: Iterable[str] | None, query_forbidden: Iterable[str] = (), gold_code: str = "", starter_code: str = ""
) -> tuple[Needle, ...]:
    """The needles of one row, each with its origin: required (or derived) then query_forbidden,
    as the grader keeps them (stripped, shorter than 4 characters dropped, the first origin of a
    repeated needle wins)."""
    first = (
        [Needle(t, REQUIRED) for t in required]
        if required is not None
        else [Needle(t, DERIVED) for t in derive_needles(gold_code, starter_code)]
    )
    candidates = [*first, *(Needle(t, QUERY_FORBIDDEN) for t in query_forbidden)]
    origin: dict[str, str] = {}
    for needle in candidates:
        origin.setdefault(needle.text.strip(), needle.source)
    return tuple(Needle(text, origin[text.strip()]) for text in usable_needles(n.text for n in candidates))
