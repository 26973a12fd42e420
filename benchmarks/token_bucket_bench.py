"""A model's token budget (issue 48 part 2): agents that each make a chain of model calls against a host that
keeps OpenAI's token bucket (the scripted model's ``TokenBucket``: refilled continuously, the whole limit a
minute), paced by the live runs' ``Pacer``. The host's figures and the pacer's waits are real; time is scaled down
(``--scale``: a 5 s model answer takes 50 ms at 100), and with it the pacer's ``ARRIVAL_LAG``, so that a run of
minutes takes seconds. Each call is charged about what the pacer estimates it at (a prompt and the answer's cap).

    python benchmarks/token_bucket_bench.py [--latency 1 5 20] [--agents 20] [--turns 10] [--limit 200000]

It prints, per model latency, the run's time scaled back, the floor (the longer of the bucket's own pace, a full
bucket then its refill, and one agent's chain of answers) and the 429s the host answered.
"""

from __future__ import annotations

import argparse
import json
import threading
import time

from pytest_websearchbench.emulate.model import TokenBucket
from pytest_websearchbench.providers import pacing

CAP = 4000  # the answer's cap each call states, which OpenAI's limit counts when the call arrives


def run(latency: float, agents: int, turns: int, limit: int, scale: float, prompt: int) -> tuple[float, float, int]:
    host = TokenBucket(limit, 60.0 / scale)
    pacer = pacing.Pacer(ceiling=64)
    body = json.dumps({"max_tokens": CAP, "input": "x" * (4 * prompt)}).encode()
    charge = prompt + CAP  # what the host counts: the pacer's estimate errs a little high (the JSON around it)

    def agent() -> None:
        for _ in range(turns):
            with pacer.pace("model", body) as paced:
                time.sleep(latency / scale / 2)  # on its way
                admitted, paced.headers = host.admit(time.monotonic(), charge)
                time.sleep(latency / scale / 2)  # the answer
                paced.status = 200 if admitted else 429

    started = time.monotonic()
    threads = [threading.Thread(target=agent) for _ in range(agents)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = (time.monotonic() - started) * scale
    floor = max((agents * turns * charge - limit) / (limit / 60.0), turns * latency)
    return took, floor, host.throttled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, nargs="+", default=[1.0, 5.0, 20.0], help="model answer seconds")
    parser.add_argument("--agents", type=int, default=20)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--limit", type=int, default=200_000, help="tokens a minute")
    parser.add_argument("--prompt", type=int, default=1000, help="each call's prompt tokens")
    parser.add_argument("--scale", type=float, default=100.0)
    args = parser.parse_args()
    pacing.ARRIVAL_LAG /= args.scale
    for latency in args.latency:
        took, floor, refused = run(latency, args.agents, args.turns, args.limit, args.scale, args.prompt)
        ratio = took / floor
        print(f"latency {latency:g} s: {took:.0f} s against a floor of {floor:.0f} s = {ratio:.2f}x, {refused} x 429")


if __name__ == "__main__":
    main()
