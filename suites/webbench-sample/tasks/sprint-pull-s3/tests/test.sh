#!/bin/sh
# Grades the world an agent left behind. WSB_WORLD_DIR: the folder with world.db, world_before.db,
# web_trace.jsonl and call_trace.jsonl. Writes WebScore / 100 to WSB_REWARD_FILE when set.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
exec python -m pytest_websearchbench.webbench.grading.verifier --contract "$here/contract.json" \
    --world-dir "${WSB_WORLD_DIR:?set WSB_WORLD_DIR to the world folder}" --reward "${WSB_REWARD_FILE:-/dev/null}"
