#!/bin/sh
# Replays the oracle's route (browser actions) against a running world. WSB_BASE_URL: http://127.0.0.1:PORT
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
exec python -m pytest_websearchbench.webbench.browsing.browser --base-url "${WSB_BASE_URL:?set WSB_BASE_URL}" \
    --actions "$here/actions.jsonl"
