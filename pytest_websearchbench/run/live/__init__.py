"""The live part of a run (DESIGN § 5b): the items that will call a provider or a model are worked here
first, many at once, in one process (pytest's, or the xdist controller's), each item's traffic written as
its cassette the moment it finishes; then pytest's loop runs the items as usual (under ``-n`` too), and
each replays and scores what was recorded, so a live run scores exactly as its replay.

A run goes live when its record mode records (once, new_episodes, all, rewrite) and an item's family
records traffic (LexBench, the code family: the probe and the agent, model turns included) or, keeping its
own cassettes, gives the item's (``BenchmarkFamily.live_cassette``: WebBench's model-agent episodes, their
model turns only); in ``once`` an item whose cassette exists is reused, not called. In every record mode,
the items a family works at once (``BenchmarkFamily.works_at_once``: WebBench's sandboxed programs and route
agents in Chromium) are worked here too, ``EPISODES_AT_ONCE`` at a time, and each test is handed what its item
came to (``outcomes``). Items are worked on up
to ``--wsb-concurrency`` threads (default: as many as the hosts' adaptive limits and the ``--wsb-rate``s
times the providers' answer times take, 16 at least); an episode's own turns stay in order on its thread.
One case's items across a provider's labelled endpoints (``serper@prod``, ``serper@staging``) start together
(``interleaved``): the web drifts under both alike. Every request goes through the run's ``Pacer``
(providers/pacing.py): each host's adaptive concurrency, the budget its headers announce, its ``--wsb-rate``
booked as the request leaves. Ctrl-C keeps the finished items' cassettes and writes no other; the same
command again works only what is missing. A cassette that cannot be written is its item's one-line error;
when its folder takes no more files (full, read-only) no item starts after it, since its paid answers could
not be kept: each left is an error saying why, and the summary says so. A
provider whose account answers out of credits (402, a quota 429: ``RetryPolicy.out_of_credits``) is a stop
likewise, for that provider: none of its items starts after it. Before any of it, ``before_calls`` refuses a
provider that cannot do what the items need (run/preflight.py) and, with ``--wsb-dry-run``, prints the plan.

Every call is priced, a model's from the usage its answer reports (each item's ``SpendMeter``,
providers/pricing.py); the live line and the summary show providers and models apart, an unpriced part as
unknown. ``--wsb-max-cost`` reserves an item's worst case (its search, fetch and turn budgets at the known prices,
a turn at the largest model call seen) before it starts, and refuses a model call that would take the room the
others hold. An item whose provider or model failed after its retries while its family went on (an agent sees
it as a tool's result) is an error with that reason and no cassette of it is written, so ``once`` calls it again;
``once`` records a stale cassette again too, and ``rewrite`` and ``all`` keep a journal so that the same command
after a Ctrl-C resumes (``Journal``).

What each worked item came to (recorded, or failed with the error its test then shows) is kept on the
config and, for xdist workers, in the run's state folder (``outcomes_path``).
"""
