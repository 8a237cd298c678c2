#!/bin/sh
# tests/lib/timed.sh NAME COMMAND [ARG...] - run COMMAND, then say how long it took on a line
# of its own, "time: NAME S s" (wall-clock seconds), so that make test's log (CI's) shows where
# its time goes; tests/lib/verdict.sh lists the slowest steps from these lines. Exits with
# COMMAND's status.
set -u
[ $# -ge 2 ] || { echo "usage: $0 NAME COMMAND [ARG...]" >&2; exit 2; }
name=$1
shift
start=$(date +%s.%N)
"$@"
st=$?
end=$(date +%s.%N)
awk -v n="$name" -v a="$start" -v b="$end" 'BEGIN { printf "time: %s %.1f s\n", n, b - a }'
exit $st
