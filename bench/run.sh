#!/bin/bash
# make bench: run every bench/*.sh and print one markdown table.
top=$(cd "$(dirname "$0")/.." && pwd)
export BUILD=${BUILD:-$top/build}
echo "| metric | value |"
echo "|---|---|"
for b in "$top"/bench/*.sh; do
	[ "$(basename "$b")" = run.sh ] && continue
	bash "$b" || echo "| $(basename "$b") | failed (exit $?) |"
done
