#!/bin/bash
# Load and crash figures for the closing notes: 64 clients x LOAD_EVENTS
# (default 20,000) acked events, and 20 rounds of kill -9 under load.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
T=$(mktemp -d)
trap 'kill $dpid 2>/dev/null || true; rm -rf "$T"' EXIT
export DELIBERATE_HOME=$T/home DELIBERATE_SOCKET=$T/sock DELIBERATE_SHARE=$top HOME=$T
mkfifo "$T/ready"
"$BUILD/deliberated" --ready-fd 3 3>"$T/ready" 2>"$T/log" &
dpid=$!
read -r _ <"$T/ready"
n=${LOAD_EVENTS:-20000}
out=$(/usr/bin/python3 "$top/tests/lib/load.py" "$DELIBERATE_SOCKET" \
    "$DELIBERATE_HOME/learning-data/current/$(date +%F).ndjson" "$dpid" 64 "$n")
echo "| load: $(echo "$out" | cut -d: -f1) | $(echo "$out" | cut -d: -f2-) |"
kill $dpid; wait $dpid 2>/dev/null || true
rm -rf "$DELIBERATE_HOME"
out=$(/usr/bin/python3 "$top/tests/lib/crash-rounds.py" "$BUILD/deliberated" \
    "$DELIBERATE_SOCKET" "$DELIBERATE_HOME/learning-data" 20 4)
echo "| crash: kill -9 under 4 writers | $out |"
