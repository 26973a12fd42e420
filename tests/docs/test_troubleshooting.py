"""docs/troubleshooting.md gives every user-facing error message its fix: each raise site of a ConfigurationError,
a SuiteError, a pytest.UsageError or a pytest.fail in the package is read from the code, and its message's first
literal words (the text before, between or after what it fills in) must be on the page. A message with no words
of its own (it passes on another error's text) is left out by name below, with why."""

from __future__ import annotations

import ast
import functools

from conftest import REPO

PACKAGE = REPO / "pytest_websearchbench"
PAGE = REPO / "docs" / "troubleshooting.md"
ERRORS = {"ConfigurationError", "SuiteError"}

# (file name, function) of a raise site whose message has no words of its own, and why it is not looked for (the
# file by its name alone: a module that moves to another folder keeps its entry)
LEFT_OUT = {
    ("tasks.py", "_validate_catalog"): "a schema error's own text (jsonschema's); on the page",
    ("suites.py", "validate"): "a schema error's own text (jsonschema's); on the page",
    ("suites.py", "path_inside"): "'bad path …: …' passes on the OS's reason for a path it cannot resolve",
    ("harbor.py", "_inside"): "'bad path …: …' passes on the OS's reason for a path it cannot resolve",
    ("options.py", "_existing"): "the message is built by the caller (a path option naming nothing)",
    ("options.py", "number"): "'…: expected …, got …' is only what it fills in; on the page as the first row",
    ("prompts.py", "read_prompt_file"): "'… is empty' is only the file's name and two words; on the page",
    ("tasks.py", "_item_file"): "'… not found (…)' is only what it fills in; on the page",
    ("index.py", "_check_page"): "'missing' (a corpus line lacks a field) is one word; on the page",
    ("grades.py", "disagreement"): "built by the caller from both grades; under 'two grades for one page'",
    ("sheet.py", "import_sheet"): "'graded … here but … on line …' is under 'a page graded twice'",
    ("collect.py", "deselect"): "'not found: …' is pytest's own words for a test id; on the page",
    ("runner.py", "run_case"): "an item's error from the live phase, its reason as the provider gave it",
    ("runner.py", "check_case"): "a failed gate: the family's own message (the top k, the needles missing)",
    ("session.py", "start_run"): "a baseline's mismatch, built by reporting/baseline.py; under Baselines",
    ("hub.py", "_refused"): "the hub's refusal, its status and the fix built from it; under Published datasets",
    ("hub.py", "verify"): "the lock's or the hub's mismatch, built by sources/lock.py; on the page",
    ("hub.py", "fetch"): "the hub's own reason (offline, not cached) built by _not_cached; on the page",
    ("hub.py", "_commit"): "the hub's own reason (offline, not cached) built by _not_cached; on the page",
    ("hub.py", "attach"): "an hf:// spec's parse error, its own text",
    ("hub.py", "suite_file"): "'--suite: …' passes on a spec's parse error",
    ("contract.py", "check_contract"): "a contract's schema error, jsonschema's own text",
}


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _template(node: ast.expr) -> str | None:
    """A message's text with ``{}`` for what it fills in; None when it is not written there."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return (_template(node.left) or "{}") + (_template(node.right) or "{}")
    return None


def _message(call: ast.Call) -> tuple[bool, str | None]:
    """(whether the call makes a user-facing error, its message's template)."""
    name = _name(call.func)
    pytest_call = isinstance(call.func, ast.Attribute) and getattr(call.func.value, "id", None) == "pytest"
    if name == "SuiteError":  # SuiteError(path, message, …)
        args = call.args[1:2] or [k.value for k in call.keywords if k.arg == "message"]
    elif name in ERRORS or (pytest_call and name in ("UsageError", "fail")):
        args = call.args[:1] or [k.value for k in call.keywords if k.arg in ("reason", "msg")]
    else:
        return False, None
    return True, _template(args[0]) if args else None


def words(template: str) -> str | None:
    """The message's first literal words: the first piece between what it fills in with ten characters or three
    words, its punctuation at either end left out (None: it has none)."""
    for piece in template.split("{}"):
        piece = piece.strip(" :;,.()'\"`\n—-")
        if len(piece) >= 10 or len(piece.split()) >= 3:
            return piece
    return None


@functools.cache  # three tests read them: the package is parsed once a process
def raise_sites() -> tuple[tuple[str, str, int, str | None], ...]:
    """(file, function, line, template) of every user-facing error the package makes."""
    sites = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        owner: dict[int, str] = {}
        for function in ast.walk(tree):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(function):
                    owner.setdefault(id(node), function.name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                made, template = _message(node)
                if made:
                    sites.append(
                        (path.relative_to(PACKAGE).as_posix(), owner.get(id(node), "<module>"), node.lineno, template)
                    )
    return tuple(sites)


def test_the_code_has_the_raise_sites_this_test_reads():
    sites = raise_sites()
    assert len(sites) > 100
    assert any(words(t or "") == "must be at least" for _, _, _, t in sites)


def test_every_error_message_is_on_the_troubleshooting_page():
    page = PAGE.read_text("utf-8")
    missing, unexplained = [], []
    for where, function, line, template in raise_sites():
        key = words(template) if template else None
        if key is None:
            if (where.rsplit("/", 1)[-1], function) not in LEFT_OUT:
                unexplained.append(f"{where}:{line} ({function}): {template!r}")
        elif key not in page:
            missing.append(f"{where}:{line}: {key!r}")
    assert not unexplained, "messages with no words of their own, not in LEFT_OUT:\n" + "\n".join(unexplained)
    assert not missing, "error messages not on docs/troubleshooting.md:\n" + "\n".join(missing)


def test_what_is_left_out_is_still_in_the_code():
    sites = {
        (where.rsplit("/", 1)[-1], function)
        for where, function, _, template in raise_sites()
        if not template or not words(template)
    }
    assert not set(LEFT_OUT) - sites, f"LEFT_OUT names raise sites that are gone: {sorted(set(LEFT_OUT) - sites)}"
