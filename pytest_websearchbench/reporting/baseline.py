"""Comparing a run with an earlier results file (``--wsb-baseline``): the vendor's regression check.

Per item: failing in the baseline and still failing is a *known failure* (xfail, with the date it has
failed since); failing before and passing now is *fixed*; passing before and failing now is a
*regression* (a failure); a per-item metric drop fails only when ``--wsb-tolerance`` is given. The
suite-level verdict (a paired test on the primary metric) lives in ``reporting/regression.py``.

A baseline is only compared with a run it can be compared with: a baseline run that completed, the same
k, and per suite the same edition, digest and run kind, and the same run identity (``reporting/identity.py``:
the mode, board and agent model asked for, checked at the start; the grades and judges, at collection; the
agent model's snapshot as served, at the end) but for the provider under test's own served identity, whose
change is shown (``served_change``); ``--wsb-baseline-accept`` lets a difference pass knowingly. A baseline
written before runs had an identity is compared as before (edition, digest, kind and k only).

A baseline is a results file, or a run of a release history (``reporting/history.py``): ``FILE`` (its last
run) or ``FILE@LABEL`` (its last run labelled so), read as the results document that run would have written.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import ConfigurationError, SuiteError
from pytest_websearchbench.core.options import AGENT_MODEL, AGENT_SERVED
from pytest_websearchbench.core.results_file import read_results
from pytest_websearchbench.reporting.history import HistoryError, is_sqlite, load_history

ItemKey = tuple[str, str, str]  # (suite, case_id, variant)

#: outcomes of a baseline item that count as "not passing there"
NOT_PASSING = ("failed", "xfailed", "error")

KNOWN = "known"  # failing there, failing here: xfail
FIXED = "fixed"  # failing there, passing here
REGRESSED = "regressed"  # passing there (or within tolerance), failing here


def item_key(item: dict[str, Any]) -> ItemKey:
    return item["suite"], item["case_id"], item["provider"]


@dataclass(frozen=True)
class ItemVerdict:
    """How one item compares with the baseline."""

    status: str  # KNOWN | FIXED | REGRESSED
    reason: str
    since: str | None = None  # KNOWN: the date of the first run (in a chain of baselines) it failed in

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ItemVerdict:
        return cls(data.get("status", ""), data.get("reason", ""), data.get("since"))


class Baseline:
    """The items of an earlier ``--wsb-json`` file, by (suite, case, variant), and its run metadata."""

    def __init__(
        self,
        items: dict[ItemKey, dict[str, Any]],
        path: str = "",
        *,
        k: int | None = None,
        suites: dict[str, dict[str, Any]] | None = None,
        created: str | None = None,
        provider_settings: dict[str, dict[str, str]] | None = None,
        incomplete: str | None = None,
        selected_by: tuple[str, ...] = (),
        identity: dict[str, Any] | None = None,
    ) -> None:
        self.items = items
        self.path = path
        self.k = k
        self.suites = suites or {}
        self.created = created
        self.provider_settings = provider_settings or {}
        self.incomplete = incomplete  # why the baseline's run did not complete; None when it did
        self.selected_by = selected_by  # how its run chose a part of its items (-k …); empty: all of them
        #: its run's identity's suites (``reporting/identity.py``); empty: a file from before runs had one
        self.identity: dict[str, dict[str, Any]] = dict((identity or {}).get("suites") or {})
        #: this run's identity's suites, once the run has them (``compare_with``): what accepted differences say
        self.now: dict[str, dict[str, Any]] = {}

    @classmethod
    def load(cls, path: Path) -> Baseline:
        try:
            history = _history_spec(path)
            data = read_results(Path(path)) if history is None else history_document(*history)
        except (SuiteError, HistoryError) as exc:
            raise ConfigurationError(f"--wsb-baseline: {exc}") from None
        return cls(
            {item_key(item): item for item in data["items"]},
            str(path),
            k=data.get("k"),
            suites=dict(data.get("suites") or {}),
            created=data.get("created"),
            provider_settings=dict(data.get("provider_settings") or {}),
            incomplete=_incomplete(data),
            selected_by=tuple(data.get("selected_by") or ()),
            identity=data.get("identity"),
        )

    # ------------------------------------------------------------------ is it comparable?

    def identity_mismatch(self, asked: dict[str, dict[str, str]], accept: frozenset[str]) -> str | None:
        """Why the run cannot be compared, from what its families' options ask for (``asked``: by family,
        ``BenchmarkFamily.identity()``: the agent model, mode, board), or None: known at the start, so the
        run is refused before anything runs. Each field is compared where both sides name it."""
        found: dict[str, tuple[str, str, list[str]]] = {}  # field → (baseline's, now, suites)
        for suite, entry in sorted(self.identity.items()):
            now = asked.get(entry.get("family") or "")
            for what, value in (now or {}).items():
                old = entry.get(what)
                if old is not None and old != value and what not in accept:
                    found.setdefault(what, (str(old), value, []))[2].append(suite)
        return self._refusal(found)

    def served_mismatch(self, now: dict[str, dict[str, Any]], accept: frozenset[str]) -> str | None:
        """Why the run cannot be compared, from what its agent model's answers said served them (``now``: this
        run's identity's suites), or None. The agent model is not the provider under test: a new snapshot
        behind the same name asked for is refused (``agent-served``); known only once the model answered.
        Another model asked for and accepted (``agent-model``) accepts its snapshots too."""
        found: dict[str, tuple[str, str, list[str]]] = {}
        if AGENT_SERVED in accept or AGENT_MODEL in accept:
            return None
        for suite, entry in sorted(now.items()):
            old, new = (self.identity.get(suite) or {}).get(AGENT_SERVED), entry.get(AGENT_SERVED)
            if old and new and old != new:
                found.setdefault(AGENT_SERVED, (str(old), str(new), []))[2].append(suite)
        return self._refusal(found)

    def _refusal(self, found: dict[str, tuple[str, str, list[str]]]) -> str | None:
        if not found:
            return None
        differs = [
            f"{what} {old!r} in the baseline, {new!r} now ({'suite' if len(suites) == 1 else 'suites'} "
            f"{', '.join(suites)})"
            for what, (old, new, suites) in found.items()
        ]
        return (
            f"--wsb-baseline: {self.path} was made by another run identity: {'; '.join(differs)}; make a new "
            f"baseline, or pass --wsb-baseline-accept={','.join(found)} to compare anyway (not comparable)"
        )

    def compare_with(self, now: dict[str, dict[str, Any]]) -> None:
        """This run's identity's suites (``reporting.identity.run_identity``), once known: the accepted
        differences then name what differs in it."""
        self.now = now

    def served_change(self, suite: str, variant: str, served: dict[str, list[str]]) -> str | None:
        """What changed in what the provider under test's servers said they served, for ``variant`` in
        ``suite`` (``served``: this run's, ``reporting.identity.served_values`` of its records), e.g.
        ``served: model-a-2026-11-20 → model-a-2026-12-01`` or ``served: search type neural → keyword``; None
        when nothing changed, or the baseline has no served identity of that variant (an older file). It is
        what is being tested: shown, never refused."""
        old = ((self.identity.get(suite) or {}).get("served") or {}).get(variant)
        if old is None:
            return None
        return served_text(old, served)

    def run_mismatch(self, k: int, accept: frozenset[str]) -> str | None:
        """Why the whole run cannot be compared (the baseline's run did not complete, or its k differs), or None."""
        if self.incomplete and "incomplete" not in accept:
            return (
                f"--wsb-baseline: {self.path} is the results file of a run that did not complete "
                f"({self.incomplete}); make a new baseline from a complete run, or pass "
                f"--wsb-baseline-accept=incomplete to compare anyway (not comparable)"
            )
        if self.selected_by and "partial" not in accept:
            return (
                f"--wsb-baseline: {self.path} is the results file of a partial run ({len(self.items)} items, "
                f"selected by {' '.join(self.selected_by)}); make a new baseline from a run of whole suites, or "
                f"pass --wsb-baseline-accept=partial to compare its items only"
            )
        if self.k is None or self.k == k or "k" in accept:
            return None
        return (
            f"--wsb-baseline: {self.path} was made with k={self.k}, this run has k={k}; rerun with "
            f"--wsb-k={self.k}, or pass --wsb-baseline-accept=k to compare anyway (not comparable)"
        )

    def suite_mismatch(
        self,
        suite: str,
        edition: str,
        digest: str,
        kind: str,
        accept: frozenset[str],
        identity: dict[str, str] | None = None,
    ) -> str | None:
        """Why this suite cannot be compared with the baseline (its edition, digest or run kind — a family's
        mode, e.g. another board — differs, or a field of its identity, ``identity``: the family's, compared
        where the baseline's identity names it), or None."""
        old = self.suites.get(suite)
        if not old:
            return None
        named = self.identity.get(suite) or {}
        old = {**{what: named[what] for what in identity or {} if named.get(what) is not None}, **old}
        now = {
            "edition": edition,
            "digest": digest,
            "kind": kind,
            **{w: v for w, v in (identity or {}).items() if w in old},
        }
        names = [what for what in now if old.get(what) != now[what] and what not in accept]
        if not names:
            return None
        differs = [f"{what} {old.get(what)!r} in the baseline, {now[what]!r} now" for what in names]
        return (
            f"suite {suite!r} differs from the baseline {self.path}: {'; '.join(differs)}. Make a new baseline "
            f"for the new suite, or pass --wsb-baseline-accept={','.join(names)} to compare anyway (not comparable)"
        )

    def accepted_differences(self, k: int, suite: str, edition: str, digest: str, kind: str) -> list[str]:
        """What differs from the baseline for this suite (only ever non-empty when accepted knowingly)."""
        old = self.suites.get(suite) or {}
        out = ["baseline incomplete"] if self.incomplete else []
        out += [f"baseline partial ({' '.join(self.selected_by)}: its items only)"] if self.selected_by else []
        out += [f"k {self.k} → {k}"] if self.k is not None and self.k != k else []
        out += [
            f"{what} changed"
            for what, now in (("edition", edition), ("digest", digest), ("kind", kind))
            if old and old.get(what) != now
        ]
        named, now_named = self.identity.get(suite) or {}, self.now.get(suite) or {}
        out += [
            f"{what} {named[what]} → {now_named[what]}"
            for what in sorted(set(named) & set(now_named))
            if what not in ("family", "edition", "digest", "kind", "served") and named[what] != now_named[what]
        ]
        return out

    # ------------------------------------------------------------------ one item

    def judge(
        self, key: ItemKey, passed: bool, value: float | None, metric: str, tolerance: float | None
    ) -> ItemVerdict | None:
        """How the item ``key`` compares with its baseline record; None when the baseline lacks it or nothing changed."""
        old = self.items.get(key)
        if old is None:
            return None
        old_value = (old.get("metrics") or {}).get(metric)
        values = f"{metric} {_fmt(old_value)} in the baseline, {_fmt(value)} now"
        old_outcome = old.get("outcome")
        if not passed:
            if old_outcome in NOT_PASSING:
                since = (old.get("baseline") or {}).get("since") or self.created
                when = f" since {since[:10]}" if since else ""
                return ItemVerdict(KNOWN, f"known failure: {old_outcome} in the baseline too{when}", since)
            return ItemVerdict(REGRESSED, f"passed in the baseline, fails now ({values})")
        if tolerance is not None and old_value is not None and value is not None and old_value - value > tolerance:
            return ItemVerdict(REGRESSED, f"{values}: dropped by {old_value - value:.4f} > tolerance {tolerance:g}")
        if old_outcome in NOT_PASSING:
            return ItemVerdict(FIXED, f"{old_outcome} in the baseline, passes now")
        return None

    def value(self, key: ItemKey, metric: str, error_value: float | None) -> float | None:
        """The baseline's value of ``metric`` for an item, by the population rule (an errored item
        counts ``error_value``); None when it has none."""
        item = self.items.get(key)
        if item is None:
            return None
        found = (item.get("metrics") or {}).get(metric)
        if found is None and item.get("outcome") == "error":
            return error_value
        return found


def served_text(old: dict[str, list[str]], new: dict[str, list[str]]) -> str | None:
    """``served: <field> <old> → <new>; …`` for each field whose values changed (a field one side lacks reads
    ``none``; the field's name is left out when only one was ever served); None when nothing changed."""
    names = sorted(set(old) | set(new))
    changed = [name for name in names if sorted(old.get(name) or ()) != sorted(new.get(name) or ())]
    if not changed:
        return None

    def shown(values: list[str] | None) -> str:
        return ", ".join(sorted(values)) if values else "none"

    return "served: " + "; ".join(
        (f"{name} " if len(names) > 1 else "") + f"{shown(old.get(name))} → {shown(new.get(name))}" for name in changed
    )


def _history_spec(spec: Path | str) -> tuple[Path, str | None] | None:
    """(file, label) when ``spec`` names a history: the file itself (label None: its last run), or
    ``FILE@LABEL``; None when it names something else (a results file)."""
    spec = str(spec)
    if Path(spec).is_file():
        return (Path(spec), None) if is_sqlite(Path(spec)) else None
    file, at, label = spec.rpartition("@")
    if at and Path(file).is_file():
        if not is_sqlite(Path(file)):
            raise HistoryError(
                f"{file} is not a history file (FILE@LABEL names a labelled run of a --wsb-history file)"
            )
        return Path(file), label
    return None


def history_document(path: Path, label: str | None) -> dict[str, Any]:
    """The results document (the fields a baseline reads) of the history's last run labelled ``label`` (None:
    its last run). A failing item's ``since`` is when its failures began: the first of its unbroken failing
    runs up to that run (runs without the item do not break it)."""
    entries = load_history(path)
    chosen = [e for e in entries if label is None or e.run.label == label]
    if not chosen:
        labels = ", ".join(dict.fromkeys(e.run.label for e in entries if e.run.label)) or "none"
        raise HistoryError(
            f"{path} has no run labelled {label!r} (labels: {labels})"
            if label is not None
            else f"{path} has no run yet"
        )
    entry = chosen[-1]
    run = entry.run
    assert run.id is not None  # a loaded run has its id
    earlier = [
        (e.run.created, {i.key: i.outcome for i in e.items})
        for e in reversed(entries)
        if e.run.id is not None and e.run.id < run.id
    ]
    items = []
    for item in entry.items:
        since = None
        if item.outcome in NOT_PASSING:
            since = run.created
            for created, outcomes in earlier:  # latest first
                outcome = outcomes.get(item.key)
                if outcome is None:
                    continue
                if outcome not in NOT_PASSING:
                    break
                since = created
        items.append(
            {
                "suite": item.suite,
                "case_id": item.case_id,
                "provider": item.variant,
                "outcome": item.outcome,
                "metrics": item.metrics,
                "primary_metric": item.primary_metric,
                "baseline": {"since": since} if since else None,
            }
        )
    return {
        "created": run.created,
        "complete": run.complete,
        "interrupted": run.interrupted,
        "declared_items": run.declared_items,
        "missing_items": run.missing_items,
        "suite_errors": run.suite_errors,
        "k": run.k,
        "provider_settings": run.provider_settings,
        "suites": {
            s.suite: {"family": s.family, "kind": s.kind, "edition": s.edition, "digest": s.digest}
            for s in entry.suites
        },
        "items": items,
    }


def _incomplete(data: dict[str, Any]) -> str | None:
    """Why the run that wrote ``data`` did not complete, or None (files from before the marking count as complete)."""
    if data.get("complete", True) is not False:
        return None
    missing, declared = data.get("missing_items"), data.get("declared_items")
    parts = [f"interrupted: {data['interrupted']}"] if data.get("interrupted") else []
    if missing and declared is not None:
        parts.append(f"{missing} of {declared} declared items missing")
    if data.get("suite_errors"):
        parts.append(f"{data['suite_errors']} suites not collected")
    return "; ".join(parts) or "incomplete"


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"
