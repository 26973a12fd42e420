#!/bin/sh
# Starts the task's world server (it needs nothing but /srv/world.json) and runs the container's command.
python -m pytest_websearchbench.webbench.webapps.server --world /srv/world.json --host 127.0.0.1 --port 8080 \
    --dir /srv/world >/srv/world-server.log 2>&1 &
exec "$@"
