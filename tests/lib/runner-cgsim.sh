# tests/lib/runner-cgsim.sh - sourced by the runners that take `CGSIM` alone
# (tests/replay/run-kernel.sh, tests/replay/run-chained.sh, tests/replay/run-sleeps.sh), after
# `set -u`, with their arguments: checks them, and sets
#   $cgsim  CGSIM made absolute when it is a path (the runners run it from a scratch directory);
#   $tmp    a scratch directory removed on exit.
if [ $# -ne 1 ]; then
    echo "usage: $0 CGSIM" >&2
    exit 2
fi
cgsim=$1
case $cgsim in */*) cgsim=$(cd "$(dirname "$cgsim")" && pwd)/$(basename "$cgsim") ;; esac
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
