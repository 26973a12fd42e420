#!/bin/sh
# Replays the oracle's route (browser actions) against the running world, WSB_BASE_URL (default http://127.0.0.1:8080).
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
exec python -m pytest_websearchbench.webbench.browsing.browser --base-url "${WSB_BASE_URL:-http://127.0.0.1:8080}" \
    --actions "$here/actions.jsonl"
