#!/bin/sh
# Run every rt-app file DIR/NAME.json with `cgsim run DIR/NAME.json ARGS...` from the
# repository root, ARGS being the lines of DIR/NAME.args, or of DIR/default.args when there is
# none (one argument a line). A file with a DIR/NAME.err is one cgsim must refuse: exit status
# 2, nothing on stdout, stderr exactly NAME.err. Any other must run: exit status 0, a report on
# stdout, and stderr exactly DIR/NAME.notes (empty when there is none: the notes say what
# cgsim ignores). $VALGRIND, when set, prefixes every run.
#
# usage: tests/rtapp/run.sh CGSIM DIR
set -u
. "$(dirname "$0")/../lib/runner-args.sh"
pass=0
fail=0

for json in "$dir"/*.json; do
    [ -e "$json" ] || continue
    base=${json%.json}
    args=$base.args
    [ -f "$args" ] || args=$dir/default.args
    set --
    if [ -f "$args" ]; then
        while IFS= read -r arg || [ -n "$arg" ]; do
            set -- "$@" "$arg"
        done <"$args"
    fi
    ${VALGRIND:-} "$cgsim" run "$json" "$@" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null
    status=$?
    why=
    if [ -f "$base.err" ]; then
        [ "$status" -eq 2 ] || why="$why; exit status $status, expected 2 (refused)"
        [ -s "$tmp/stdout" ] && why="$why; wrote to stdout"
        want=$base.err
    else
        [ "$status" -eq 0 ] || why="$why; exit status $status, expected 0"
        [ -s "$tmp/stdout" ] || why="$why; no report on stdout"
        want=$base.notes
        [ -f "$want" ] || want=/dev/null
    fi
    if ! cmp -s "$want" "$tmp/stderr"; then
        got=$(head -n 1 "$tmp/stderr" | cut -c 1-300)
        why="$why; stderr differs from $(basename "$want"): $got"
    fi
    if [ -z "$why" ]; then
        pass=$((pass + 1))
    else
        echo "FAIL $json: ${why#; }"
        fail=$((fail + 1))
    fi
done

echo "rt-app files: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
