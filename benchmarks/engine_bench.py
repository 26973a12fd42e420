"""Speed of the embedded search engine: index build, then 200 queries direct and over HTTP.

    python benchmarks/engine_bench.py [--sizes 500 5000] [--queries 200]

Pages and queries are synthetic and seeded, so two runs measure the same work.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time
from collections.abc import Callable

import httpx

from pytest_websearchbench.engine import LocalSearchServer, SearchIndex

SYLLABLES = ["ka", "lo", "mi", "ren", "tas", "vo", "qui", "bel", "dor", "fen", "sa", "tru", "ne", "pix", "al"]
HAN = [chr(0x4E00 + step * 37) for step in range(600)]


def make_vocabulary(rng: random.Random, size: int = 4000) -> list[str]:
    """Pseudo-words with a Zipf-like frequency order (earlier = more common)."""
    words: dict[str, None] = {}
    while len(words) < size:
        words["".join(rng.choices(SYLLABLES, k=rng.randint(2, 4)))] = None
    return list(words)


def make_pages(count: int, seed: int = 7) -> list[dict]:
    """``count`` pages, one in ten Chinese, 150–400 tokens of body text each."""
    rng = random.Random(seed)
    vocabulary = make_vocabulary(rng)
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
    pages = []
    for n in range(count):
        if n % 10 == 9:
            title = "".join(rng.choices(HAN, k=8))
            text = "。".join("".join(rng.choices(HAN, k=rng.randint(10, 30))) for _ in range(12))
            language = "zh"
        else:
            title = " ".join(rng.choices(vocabulary, weights, k=rng.randint(3, 7))).capitalize()
            text = " ".join(rng.choices(vocabulary, weights, k=rng.randint(150, 400)))
            language = "en"
        pages.append(
            {
                "url": f"https://site{n % 50}.test/page/{n}",
                "title": title,
                "text": text,
                "language": language,
                "site": f"site{n % 50}.test",
                "published": None,
            }
        )
    return pages


def make_queries(pages: list[dict], count: int, seed: int = 11) -> list[str]:
    """Queries drawn from page titles and text, as a searcher who saw the page would type."""
    rng = random.Random(seed)
    queries = []
    for _ in range(count):
        page = rng.choice(pages)
        if page["language"] == "zh":
            start = rng.randrange(len(page["text"]) - 4)
            queries.append(page["text"][start : start + rng.randint(2, 4)])
        else:
            queries.append(" ".join(rng.sample((page["title"] + " " + page["text"]).split()[:60], 3)))
    return queries


def latencies_ms(run: Callable[[str], object], queries: list[str]) -> list[float]:
    timings = []
    for query in queries:
        started = time.perf_counter()
        run(query)
        timings.append((time.perf_counter() - started) * 1000)
    return timings


def summary(timings: list[float]) -> str:
    p95 = statistics.quantiles(timings, n=20)[18]
    return f"{statistics.mean(timings):7.2f} {statistics.median(timings):7.2f} {p95:7.2f}"


def bench(size: int, query_count: int) -> str:
    """One table row: build seconds, direct and HTTP latency (mean/p50/p95 ms), peak RSS."""
    pages = make_pages(size)
    queries = make_queries(pages, query_count)
    started = time.perf_counter()
    index = SearchIndex(pages)
    build_seconds = time.perf_counter() - started
    direct = latencies_ms(lambda q: index.search(q, k=10), queries)
    with LocalSearchServer(index) as server, httpx.Client(base_url=server.base_url) as client:
        over_http = latencies_ms(lambda q: client.post("/v1/search", json={"query": q, "k": 10}).json(), queries)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return f"{size:6d} {build_seconds:8.2f} | {summary(direct)} | {summary(over_http)} | {peak_mib:7.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 5000])
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    print(
        f"{'pages':>6} {'build s':>8} | {'direct ms: mean    p50     p95':>23} |"
        f" {'http ms: mean     p50     p95':>23} | {'RSS MiB':>7}"
    )
    for size in args.sizes:
        print(bench(size, args.queries), flush=True)


if __name__ == "__main__":
    main()
