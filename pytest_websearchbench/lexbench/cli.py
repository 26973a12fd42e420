"""The commands of the pool → grade → rescore workflow (README, "LexBench on real providers"):

    wsb-lexbench pool   RUN.json… [--suite S] [--grades F…]
    wsb-lexbench sheet  export RUN.json… --out sheet.csv
    wsb-lexbench sheet  import RUN.json… --sheet filled.csv --out grades-human.jsonl
    wsb-lexbench judge  RUN.json… --model M --out grades-v2.jsonl [--transcript judge.html]
    wsb-lexbench fill   RUN.json… --model M --grades-file grades-filled.jsonl

(``python -m pytest_websearchbench.lexbench`` is the same command.)
Every command pools the results files, marks what the suite's grades (and any ``--grades`` files)
already cover, and never writes over them. Bad input is one line naming the file, line and field
(exit 2; ``fill``'s, exit 4); nothing is left half-written.

``fill`` grades the holes: the runs' top-k pages that no grades file covers and no requirement rules 0
(what each item's ``unjudged`` lists), blind, with the model judge of ``judge``, and appends their grade
lines (with their receipts: ``grader`` ``model:<name>``, ``graded_at``…) to ``--grades-file``, a grades
file of the user's (created if new; a bundled suite's is refused), which then scores with ``--wsb-grades``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_websearchbench.core.exceptions import SuiteError, WebSearchBenchError
from pytest_websearchbench.core.models import Hit
from pytest_websearchbench.core.options import CassetteMode
from pytest_websearchbench.core.suites import MANIFEST_NAME, SuiteManifest
from pytest_websearchbench.core.urls import normalize_url
from pytest_websearchbench.lexbench.agreement import Agreement
from pytest_websearchbench.lexbench.editions import (
    edition_lines,
    file_digest,
    grader_kind,
    layer_grades,
    write_edition,
)
from pytest_websearchbench.lexbench.grades import GradedPreview
from pytest_websearchbench.lexbench.judge import ModelJudge, Prices, Verdict
from pytest_websearchbench.lexbench.packets import DEFAULT_SEED, Packet, PacketSet, build_packets
from pytest_websearchbench.lexbench.pool import QueryPool, Run, build_pool, load_runs, pool_report
from pytest_websearchbench.lexbench.scoring import score_scenario
from pytest_websearchbench.lexbench.sheet import export_sheet, guide_path, import_sheet, sheet_packet_ids
from pytest_websearchbench.providers.pricing import model_prices
from pytest_websearchbench.sources.resolve import resolve_suite_spec


class Pooled:
    """The runs, their suite and grades, and the pool they make."""

    def __init__(self, args: argparse.Namespace) -> None:
        from pytest_websearchbench.lexbench.family import LexBenchFamily

        runs = [Path(p) for p in args.runs]
        if args.suite:  # it also picks the suite out of results files that hold several
            self.folder = resolve_suite_spec(args.suite, Path.cwd(), Path.cwd())
            manifest = SuiteManifest.load(self.folder / MANIFEST_NAME)
            self.run: Run = load_runs(runs, manifest.name)
        else:
            self.run = load_runs(runs)
            self.folder = resolve_suite_spec(self.run.suite, Path.cwd(), Path.cwd())
            manifest = SuiteManifest.load(self.folder / MANIFEST_NAME)
        if manifest.name != self.run.suite:
            raise WebSearchBenchError(
                f"{self.folder}: suite {manifest.name!r}, but the results are of {self.run.suite!r}"
            )
        suite = LexBenchFamily().load(manifest)
        grades_path = manifest.file("grades")
        assert grades_path is not None  # a scenario suite's load requires it
        self.grades_path = grades_path
        self.scenarios = {case.id: case.data for case in suite.cases}
        layered = layer_grades(manifest.name, suite.context, [Path(g) for g in args.grades], set(self.scenarios))
        self.reference: dict[str, dict[str, GradedPreview]] = layered.grades
        self.pools: dict[str, QueryPool] = build_pool(self.run, self.scenarios, self.reference)

    def packets(self, seed: int, calibrate: bool) -> PacketSet:
        return build_packets(self.run.suite, self.pools, seed=seed, calibrate=calibrate)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", nargs="+", metavar="RUN.json", help="results files (--wsb-json) of one suite and k")
    parser.add_argument("--suite", default="", help="the suite folder or bundled name (default: the runs' suite)")
    parser.add_argument(
        "--grades",
        action="append",
        default=[],
        metavar="FILE",
        help="grades files that already count, after the suite's own (repeatable)",
    )


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="LexBench's pool → grade → rescore workflow.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{pool,sheet,judge,fill}")

    pool = commands.add_parser(
        "pool",
        help="pool collected runs and report what is left to grade",
        description="Pool collected runs and report what is left to grade.",
    )
    _common(pool)
    pool.set_defaults(body=_pool_command)

    sheet = commands.add_parser(
        "sheet",
        help="export the blind packets as a grading sheet, or import it filled",
        description="Export the blind packets as a grading sheet, or import it filled.",
    )
    directions = sheet.add_subparsers(dest="direction", required=True)
    export = directions.add_parser("export", help="write the packets left to grade as a CSV or JSONL sheet")
    _common(export)
    export.add_argument("--out", required=True, help="the sheet (.csv for a spreadsheet, else JSONL)")
    export.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the shuffle's seed")
    export.add_argument("--calibrate", action="store_true", help="also pages already graded")
    imported = directions.add_parser("import", help="read a filled sheet into a new grades file")
    _common(imported)
    imported.add_argument("--sheet", required=True, help="the filled sheet")
    imported.add_argument("--out", required=True, help="the new grades file (never the suite's)")
    imported.add_argument("--seed", type=int, default=DEFAULT_SEED)
    imported.add_argument("--calibrate", action="store_true")
    sheet.set_defaults(body=_sheet_command)

    judge = commands.add_parser(
        "judge",
        help="grade the pool's blind packets with a model into a new grades file",
        description="Grade the pool's blind packets with a model (any OpenAI-compatible endpoint: OPENAI_BASE_URL, "
        "OPENAI_API_KEY) through cassettes, into a new grades file.",
    )
    _common(judge)
    judge.add_argument("--model", required=True, help="the judge model's name at the endpoint")
    judge.add_argument("--out", required=True, help="the new grades file (never the suite's)")
    judge.add_argument(
        "--calibrate",
        action="store_true",
        help="also grade pages already graded, to report agreement (κ, confusion, τ)",
    )
    _model_judge(judge)
    judge.add_argument(
        "--transcript",
        default=None,
        help="also write the run's transcript (HTML): each packet, the prompt's sha256, the raw "
        "answer and the parsed grade",
    )
    judge.set_defaults(body=_judge_command)

    fill = commands.add_parser(
        "fill",
        help="grade exactly the runs' holes (top-k pages nobody graded) with a model, appended to a grades file",
        description="Grade exactly the holes of the runs (their top-k pages that no grades file covers and no "
        "requirement rules 0: each item's unjudged), blind, with a model judge (OPENAI_BASE_URL, OPENAI_API_KEY) "
        "through cassettes, and append their grade lines, with the judge's name and the date, to a grades file "
        "that then scores with --wsb-grades. Bad input is one line, exit 4, nothing written.",
    )
    _common(fill)
    fill.add_argument("--model", required=True, help="the judge model's name at the endpoint")
    fill.add_argument(
        "--grades-file",
        required=True,
        metavar="PATH",
        help="the grades file to append to (created when new; its grades count as given already; a bundled "
        "suite's is refused)",
    )
    _model_judge(fill)
    fill.set_defaults(body=_fill_command)
    return parser


def _model_judge(parser: argparse.ArgumentParser) -> None:
    """The model judge's options besides its name (``judge`` and ``fill``)."""
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the packets' shuffle seed")
    parser.add_argument(
        "--record-mode",
        default="once",
        choices=[m.value for m in CassetteMode],
        help="judge cassettes: none replays offline with no key (default: once)",
    )
    parser.add_argument("--cassettes", default="cassettes", help="cassette folder (default: ./cassettes)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=180.0,
        help="seconds one attempt of a model call may take, its whole answer included (default: 180)",
    )
    parser.add_argument(
        "--concurrency",
        type=_at_least_one,
        default=JUDGE_THREADS,
        help=f"at most this many packets sent at once when recording (default: {JUDGE_THREADS}); fewer while the "
        "model's host signals its limit (a 429, its rate-limit headers): the live runs' adaptive pacing. A "
        "packet's answer is kept as it comes",
    )
    parser.add_argument(
        "--no-temperature",
        action="store_true",
        help="send no temperature (for a model that refuses one; the default sends 0)",
    )
    parser.add_argument(
        "--price-in",
        type=float,
        default=None,
        help="USD per million input tokens (default: the price table's, for a model it knows)",
    )
    parser.add_argument(
        "--price-out", type=float, default=None, help="USD per million output tokens (default: the price table's)"
    )


#: the judge's most packets at once (--concurrency): a ceiling, the pacer adapts beneath it to the model's host
JUDGE_THREADS = 64
#: ``fill``'s exit status on bad input (the issue's; the other commands' is 2)
FILL_BAD_INPUT = 4


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """The ``wsb-lexbench`` command; bad input is one line on stderr and exit status 2 (``fill``: 4)."""
    args = build_parser(prog).parse_args(argv)
    try:
        status: int = args.body(args)
        return status
    except (WebSearchBenchError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return FILL_BAD_INPUT if args.command == "fill" else 2
    except KeyboardInterrupt:  # one line, not the traceback of wherever the call was waiting
        resume = (
            " (each packet judged so far is kept in its cassette: running the same command again resumes from there)"
            if args.command in ("judge", "fill")
            else " (its files are written whole or not at all: run it again)"
        )
        print(f"interrupted{resume}", file=sys.stderr)
        return 130


def _pool_command(args: argparse.Namespace) -> int:
    pooled = Pooled(args)
    print("\n".join(pool_report(pooled.run, pooled.pools)))
    return 0


def _sheet_command(args: argparse.Namespace) -> int:
    pooled = Pooled(args)
    packets = pooled.packets(args.seed, args.calibrate)
    if args.direction == "import":
        _check_out(pooled, Path(args.out), args.grades)
    if args.direction == "export":
        export_sheet(Path(args.out), packets.packets)
        print(f"{len(packets.packets):,} packets written to {args.out} (guide: {guide_path(Path(args.out))})")
        return 0
    if not args.calibrate and not sheet_packet_ids(Path(args.sheet)) <= set(packets.by_id()):
        # a sheet exported with --calibrate holds packets of pages already graded: import it as one
        calibration = pooled.packets(args.seed, True)
        if sheet_packet_ids(Path(args.sheet)) <= set(calibration.by_id()):
            print(
                f"{args.sheet}: a calibration sheet (exported with --calibrate: it grades pages already graded "
                "too); imported as one"
            )
            packets = calibration
    verdicts = import_sheet(Path(args.sheet), packets.by_id())
    return _write(pooled, packets, verdicts, Path(args.out))


def _judge_command(args: argparse.Namespace) -> int:
    pooled = Pooled(args)
    _check_out(pooled, Path(args.out), args.grades)
    packets = pooled.packets(args.seed, args.calibrate)
    verdicts = _judge_packets(args, pooled.run.suite, packets)
    if args.transcript:
        from pytest_websearchbench.lexbench.judge_transcript import write_judge_transcript
        from pytest_websearchbench.providers.model_client import ModelEndpoint

        size = write_judge_transcript(
            Path(args.transcript), args.model, packets, verdicts, [ModelEndpoint.from_environ(os.environ).api_key]
        )
        print(f"transcript: {args.transcript} ({size:,} bytes)")
    return _write(pooled, packets, verdicts, Path(args.out))


def _judge_packets(args: argparse.Namespace, suite: str, packets: PacketSet) -> dict[str, Verdict]:
    """The verdicts of ``packets`` by the model judge the options (``_model_judge``) describe."""
    # the options, else the price table's (providers/pricing.py); a model it does not know costs "unknown"
    given = args.price_in is not None and args.price_out is not None
    prices = Prices(args.price_in, args.price_out) if given else model_prices(args.model)
    return _judge(
        suite,
        packets,
        ModelSpec(args.model, prices, None if args.no_temperature else 0),
        CassetteMode(args.record_mode),
        Path(args.cassettes),
        args.timeout,
        args.concurrency,
    )


def _fill_command(args: argparse.Namespace) -> int:
    """The holes of the runs, graded by the model judge and appended to ``--grades-file``: the target is checked
    (and, when it exists, read as grades that count) before any packet is sent, so bad input writes nothing."""
    from pytest_websearchbench.core.atomic import write_text_atomic

    target = Path(args.grades_file)
    existing = _appendable(target)
    if existing is not None:  # its grades count as given: a second fill finds no hole the first one filled
        args.grades = [*args.grades, str(target)]
    pooled = Pooled(args)
    packets = pooled.packets(args.seed, calibrate=False)
    holes = sorted({page for pages in packets.targets.values() for page in pages})
    if not holes:
        print(
            f"no holes: every top-{pooled.run.k} page of the runs has a grade or is 0 by rule; {target} "
            + ("unchanged" if existing is not None else "not written")
        )
        return 0
    print(
        f"holes: {len(holes):,} page{'s' if len(holes) != 1 else ''} nobody graded in "
        f"{len({qid for qid, _ in holes}):,} of {len(pooled.scenarios):,} queries "
        f"({len(packets.packets):,} blind packet{'s' if len(packets.packets) != 1 else ''})"
    )
    verdicts = _judge_packets(args, pooled.run.suite, packets)
    lines = [
        line
        for line in edition_lines(pooled.run.suite, pooled.pools, packets, verdicts)
        if grader_kind(line["grader"]) != "rule"  # a page 0 by rule is no hole: scoring rules it 0 as it is
    ]
    unjudged = [v for v in verdicts.values() if v.grade is None]
    receipts = target.with_name(target.name + ".unjudged.jsonl")
    _write_receipts(receipts, unjudged)
    left = len(holes) - len(lines)
    if not lines:
        print(
            f"error: none of the {len(verdicts):,} packets sent got a grade ({_why(unjudged)}); receipts in "
            f"{receipts}; {target} {'unchanged' if existing is not None else 'not written'}",
            file=sys.stderr,
        )
        return 1
    separators = (",", ":") if existing and _compact(existing) else (", ", ": ")
    added = "".join(
        json.dumps(line, ensure_ascii=False, sort_keys=True, separators=separators) + "\n" for line in lines
    )
    before = existing or ""
    write_text_atomic(target, before + ("\n" if before and not before.endswith("\n") else "") + added)
    # the line naming the file is kept whole (its length is its path's); its digest and the holes left go below it
    print(f"appended {len(lines):,} grade line{'s' if len(lines) != 1 else ''} (model:{args.model}) to {target}")
    print(f"  {file_digest(target)}")
    if left:
        print(f"  {left:,} hole{'s' if left != 1 else ''} left unjudged (receipts in {receipts}: run it again)")
    if target.resolve() != pooled.grades_path.resolve():
        print(f"rescore with --wsb-grades={target}")
    return 0


def _appendable(target: Path) -> str | None:
    """The text of the grades file ``fill`` appends to (None: a new file), or a one-line refusal naming what to
    set: a bundled suite's grades, a folder that is missing or that cannot be written, a file that cannot be
    read (whether its lines are grades of this suite is checked with the other grades files)."""
    from pytest_websearchbench.core.bundled import BUNDLED_SUITES_DIR

    resolved = target.resolve()
    installed = (BUNDLED_SUITES_DIR.resolve(), Path(__file__).resolve().parents[1])  # the suites, the package
    if any(resolved.is_relative_to(folder) for folder in installed):
        raise SuiteError(
            target,
            "a bundled suite's grades, part of the installed plugin: set --grades-file to a grades file of your own "
            "(then score with --wsb-grades)",
            field="--grades-file",
        )
    if not resolved.parent.is_dir():
        raise SuiteError(
            target,
            f"no folder {resolved.parent}: set --grades-file to a file in a folder that exists",
            field="--grades-file",
        )
    if not os.access(resolved.parent, os.W_OK | os.X_OK) or (resolved.exists() and not os.access(resolved, os.W_OK)):
        raise SuiteError(
            target,
            "cannot be written here (permissions): set --grades-file to a file you may write",
            field="--grades-file",
        )
    if resolved.exists() and not resolved.is_file():
        raise SuiteError(target, "not a file: set --grades-file to a grades file (JSONL)", field="--grades-file")
    if not resolved.exists():
        return None
    try:
        return resolved.read_text("utf-8")
    except UnicodeDecodeError:
        raise SuiteError(
            target, "not UTF-8 text: set --grades-file to a grades file (JSONL)", field="--grades-file"
        ) from None


def _compact(text: str) -> bool:
    """Whether a grades file's lines are written without spaces after separators (as the sample suites' are)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return bool(first) and '": ' not in first and '", "' not in first


def _check_out(pooled: Pooled, out: Path, grades: list[str]) -> None:
    """New grades go to a new file: never into the suite's folder, never over a grades file in use."""
    if out.resolve().parent == pooled.folder.resolve() or out.resolve() in {Path(g).resolve() for g in grades}:
        raise SuiteError(
            out,
            "that is where grades in use live: new grades go to a new file outside the suite's folder",
            field="--out",
        )


@dataclass(frozen=True)
class ModelSpec:
    name: str
    prices: Prices | None
    temperature: float | None


def _judge(
    suite: str,
    packets: PacketSet,
    spec: ModelSpec,
    mode: CassetteMode,
    cassettes: Path,
    timeout: float,
    concurrency: int = JUDGE_THREADS,
) -> dict[str, Verdict]:
    """Every packet's verdict: a packet whose cassette holds its answer is replayed; the others are sent, up
    to ``concurrency`` at once, each recorded into its own cassette when its answer is in (so an interrupted
    run keeps what it was told, and the same command again sends only the rest). The requests are paced as a
    live run's (providers/pacing.py: the model host's adaptive limit under ``concurrency``, its headers)."""
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

    from pytest_websearchbench.cassettes.capture import Capture, capturing
    from pytest_websearchbench.cassettes.recorder import cassette_mismatch_error, once_replays, use_cassette
    from pytest_websearchbench.providers.model_client import ChatCompletionsApi, ModelClient, ModelEndpoint
    from pytest_websearchbench.providers.pacing import Pacer

    endpoint = ModelEndpoint.from_environ(os.environ)
    client = ModelClient(
        endpoint.url_for(mode.may_record), endpoint.api_key, timeout=timeout, timeout_setting="--timeout"
    )
    judge = ModelJudge(spec.name, lambda body: client.ask(ChatCompletionsApi.path, body), spec.prices, spec.temperature)
    folder = cassettes / suite / f"judge-{re.sub(r'[^A-Za-z0-9._-]+', '-', spec.name)}"
    secrets = [endpoint.api_key] if endpoint.api_key else []
    aliases = endpoint.aliases(mode.may_record)
    verdicts: dict[str, Verdict] = {}

    def keep(packet_id: str, verdict: Verdict) -> None:
        if verdict.grade is None and _fatal(verdict.reason):
            raise WebSearchBenchError(f"judge {spec.name}: {verdict.reason}")
        verdicts[packet_id] = verdict

    def ask(packet: Packet, path: Path) -> Verdict:
        capture = Capture(path, mode, aliases=aliases, secrets=secrets)
        with capture.active():
            verdict = judge.grade(packet)
        capture.save([])
        return verdict

    live = []
    try:
        for packet in packets.packets:
            path = folder / f"{packet.id}.yaml"
            if mode.may_record and not once_replays(path, mode):
                live.append((packet, path))
                continue
            try:
                with use_cassette(path, CassetteMode.NONE, aliases=aliases, secrets=secrets):
                    keep(packet.id, judge.grade(packet))
            except cassette_mismatch_error():
                raise WebSearchBenchError(
                    f"{path}: no recorded judge answer for packet {packet.id} — record it with --record-mode once "
                    "(OPENAI_BASE_URL, OPENAI_API_KEY)"
                ) from None
        if live:
            pacer = Pacer(ceiling=concurrency)
            with (
                capturing(pacer.pace),
                ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="wsb-judge") as pool,
            ):
                # the first packet alone: a wrong key, model or URL fails every call alike, so it stops the run
                # after one call, not after a volley of them
                first, *rest = live
                keep(first[0].id, ask(*first))
                pending = {pool.submit(ask, packet, path): packet for packet, path in rest}
                try:
                    while pending:
                        done, _ = wait(pending, return_when=FIRST_COMPLETED)
                        for future in done:
                            keep(pending.pop(future).id, future.result())
                finally:  # a fatal answer or Ctrl-C: no packet starts, the answers in already are in their cassettes
                    for future in pending:
                        future.cancel()
    finally:
        client.close()
    return {packet.id: verdicts[packet.id] for packet in packets.packets if packet.id in verdicts}


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def _fatal(reason: str) -> bool:
    """A wrong key, model or URL fails every call alike: stop at the first instead of recording them all."""
    return bool(re.search(r"HTTP (401|403|404)\b", reason))


def _write(pooled: Pooled, packets: PacketSet, verdicts: dict[str, Verdict], out: Path) -> int:
    """The new edition and its receipts; exit 1 when packets were sent and none came back graded."""
    lines = edition_lines(pooled.run.suite, pooled.pools, packets, verdicts)
    print("\n".join(pool_report(pooled.run, pooled.pools)))
    unjudged = [v for v in verdicts.values() if v.grade is None]
    unjudged_path = out.with_name(out.name + ".unjudged.jsonl")
    _write_receipts(unjudged_path, unjudged)
    graded = sum(v.grade is not None for v in verdicts.values())
    cost = sum(v.cost_usd or 0.0 for v in verdicts.values())
    priced = any(v.cost_usd is not None for v in verdicts.values())
    if verdicts:
        print(
            f"packets: {len(packets.packets):,} sent · {graded:,} graded · {len(unjudged):,} unjudged"
            + (f" (see {unjudged_path})" if unjudged else "")
            + (f" · cost {cost:.4f} USD" if priced else "")
        )
    if not lines and not verdicts:  # an empty edition would only be a file to mistake for grades
        print(f"nothing new to grade: every pooled page already has a grade; {out} not written")
        print("  (--calibrate grades them again to measure agreement)")
        return 0
    if lines:
        digest = write_edition(out, lines)
        kinds: dict[str, int] = {}
        for line in lines:
            kinds[grader_kind(line["grader"])] = kinds.get(grader_kind(line["grader"]), 0) + 1
        print(
            f"new edition: {out} — "
            + " · ".join(f"{n:,} {k}" for k, n in sorted(kinds.items()))
            + " (the suite's grades are untouched)"
        )
        print(f"  {digest}")  # below the line naming the file, which is kept whole
    if verdicts and not graded:  # receipts alone: the run must not pass for a graded one
        print(
            f"error: none of the {len(verdicts):,} packets sent got a grade ({_why(unjudged)}); receipts in "
            f"{unjudged_path}" + ("" if lines else f"; {out} not written"),
            file=sys.stderr,
        )
        return 1
    new = {grader_kind(line["grader"]) for line in lines} & {"model", "human"}
    if new:
        print("\n".join(measure_agreement(pooled, lines).lines("reference", " and ".join(sorted(new)))))
    return 0


def _write_receipts(path: Path, unjudged: list[Verdict]) -> None:
    from pytest_websearchbench.core.atomic import write_text_atomic

    if unjudged:
        write_text_atomic(
            path,
            "".join(
                json.dumps({**v.receipt(), "unjudged": True, "reason": v.reason}, ensure_ascii=False, sort_keys=True)
                + "\n"
                for v in unjudged
            ),
        )
    elif path.exists():
        path.unlink()


def _why(unjudged: list[Verdict]) -> str:
    """The reasons, most frequent first: each counted once, the first one's full text as an example."""
    counts: dict[str, list[str]] = {}
    for verdict in unjudged:
        counts.setdefault(verdict.reason.split(":")[0], []).append(verdict.reason)
    return "; ".join(
        f"{len(reasons):,} {kind} (e.g. {reasons[0][len(kind) + 1 :].strip()[:120]})"
        if reasons[0] != kind
        else f"{len(reasons):,} {kind}"
        for kind, reasons in sorted(counts.items(), key=lambda kv: -len(kv[1]))
    )


def measure_agreement(pooled: Pooled, lines: list[dict[str, Any]]) -> Agreement:
    """Pairs (reference grade, new grade) over pages both graded, and each provider's mean nDCG@k under the
    reference grades and under the new ones (new grades where given, the reference elsewhere)."""
    new = {
        (line["query_id"], normalize_url(line["url"])): line
        for line in lines
        if grader_kind(line["grader"]) in ("model", "human")
    }
    pairs = tuple(
        (pooled.reference[q][key].grade, new[q, key]["grade"])
        for q, key in sorted(new)
        if key in pooled.reference.get(q, {})
    )
    replaced: dict[str, dict[str, GradedPreview]] = {q: dict(g) for q, g in pooled.reference.items()}
    for line in lines:
        replaced.setdefault(line["query_id"], {})[normalize_url(line["url"])] = GradedPreview.of_line(line)
    rankings = {}
    for provider in pooled.run.providers:
        answered = {item.case_id: item.hits for item in pooled.run.items if item.provider == provider}
        means = []
        for grades in (pooled.reference, replaced):
            total = 0.0
            for qid, scenario in pooled.scenarios.items():
                hits = answered.get(qid)
                if hits:  # an errored or missing item counts 0, as in the summary
                    total += score_scenario(
                        scenario, [_hit(h, i) for i, h in enumerate(hits, 1)], grades.get(qid, {}), pooled.run.k
                    ).metrics["ndcg"]
            means.append(total / len(pooled.scenarios) if pooled.scenarios else 0.0)
        rankings[provider] = (means[0], means[1])
    return Agreement(pairs, rankings, f"nDCG@{pooled.run.k}")


def _hit(hit: dict[str, Any], position: int) -> Hit:
    extra = hit.get("extra")
    return Hit(
        int(hit.get("rank") or position),
        hit["url"],
        str(hit.get("title") or ""),
        str(hit.get("snippet") or ""),
        extra if isinstance(extra, dict) else {},
    )
