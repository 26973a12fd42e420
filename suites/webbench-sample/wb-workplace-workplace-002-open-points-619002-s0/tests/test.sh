#!/bin/sh
# Grades the world an agent left behind: WSB_WORLD_DIR (default /srv/world, collected from the task's
# container) holds world.db, world_before.db, web_trace.jsonl and call_trace.jsonl. Writes WebScore / 100
# to WSB_REWARD_FILE (default /logs/verifier/reward.txt, where Harbor reads it).
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
reward="${WSB_REWARD_FILE:-/logs/verifier/reward.txt}"
mkdir -p "$(dirname "$reward")"
exec python -m pytest_websearchbench.webbench.grading.verifier --contract "$here/contract.json" \
    --world-dir "${WSB_WORLD_DIR:-/srv/world}" --reward "$reward"
