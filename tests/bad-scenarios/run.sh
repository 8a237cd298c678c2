#!/bin/sh
# Run every malformed scenario DIR/NAME.yaml, and rt-app file DIR/NAME.json, with `cgsim run
# DIR/NAME.yaml -o OUT ARGS...` from the repository root, ARGS being the lines of DIR/NAME.args when it exists (one argument
# a line). Each must be refused as docs/scenario-format.md asks: exit status 2, nothing on
# stdout, stderr exactly DIR/NAME.err (one FILE:LINE:COL message), and OUT (a path that does not
# exist beforehand) still absent afterwards. $VALGRIND, when set, prefixes every run.
#
# usage: tests/bad-scenarios/run.sh CGSIM DIR
set -u
. "$(dirname "$0")/../lib/runner-args.sh"
pass=0
fail=0
n=0

for yaml in "$dir"/*.yaml "$dir"/*.json; do
    [ -e "$yaml" ] || continue
    n=$((n + 1))
    base=${yaml%.*}
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
