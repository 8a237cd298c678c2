#!/bin/sh
# Run every malformed scenario DIR/NAME.yaml with `cgsim run DIR/NAME.yaml -o OUT ARGS...`
# from the repository root, ARGS being the lines of DIR/NAME.args when it exists (one argument
# a line). Each must be refused as docs/scenario-format.md asks: exit status 2, nothing on
# stdout, stderr exactly DIR/NAME.err (one FILE:LINE:COL message), and OUT (a path that does not
# exist beforehand) still absent afterwards. $VALGRIND, when set, prefixes every run.
#
# usage: tests/run-bad-scenarios.sh CGSIM DIR
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 CGSIM DIR" >&2
    exit 2
fi
here=$(pwd)
root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
# CGSIM: a path is made absolute (we run from the root); a bare name is looked up in $PATH
case $1 in
    /*) cgsim=$1 ;;
    */*) cgsim=$here/$1 ;;
    *) cgsim=$1 ;;
esac
# DIR, as a path relative to the root when it lies below it (the .err files name it so)
case $2 in
    /*) dir=$2 ;;
    *) dir=$here/$2 ;;
esac
dir=$(cd "$dir" && pwd) || exit 2
case $dir in
    "$root"/*) dir=${dir#"$root"/} ;;
esac
cd "$root" || exit 2

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' 0
trap 'exit 2' HUP INT TERM
pass=0
fail=0
n=0

for yaml in "$dir"/*.yaml; do
    [ -e "$yaml" ] || continue
    n=$((n + 1))
    base=${yaml%.yaml}
    want=$base.err
    if [ ! -f "$want" ]; then
        echo "FAIL $yaml: no $(basename "$want")"
        fail=$((fail + 1))
        continue
    fi
    out=$tmp/out.$n
    set --
    if [ -f "$base.args" ]; then
        while IFS= read -r arg || [ -n "$arg" ]; do
            set -- "$@" "$arg"
        done <"$base.args"
    fi
    ${VALGRIND:-} "$cgsim" run "$yaml" -o "$out" "$@" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null
    status=$?
    why=
    [ "$status" -eq 2 ] || why="$why; exit status $status, expected 2"
    [ -s "$tmp/stdout" ] && why="$why; wrote $(wc -c <"$tmp/stdout" | tr -d ' ') bytes to stdout"
    [ -e "$out" ] && why="$why; created the -o directory"
    if ! cmp -s "$want" "$tmp/stderr"; then
        lines=$(wc -l <"$tmp/stderr" | tr -d ' ')
        got=$(head -n 1 "$tmp/stderr" | cut -c 1-300)
        why="$why; stderr differs ($lines lines): $got"
    fi
    if [ -z "$why" ]; then
        pass=$((pass + 1))
    else
        echo "FAIL $yaml: ${why#; }"
        fail=$((fail + 1))
    fi
done

echo "bad scenarios: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
