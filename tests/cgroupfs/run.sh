#!/usr/bin/env bash
# Run every .cgs case under DIR/<semantics>/ with `cgsim cgroupfs --semantics <semantics>` and
# compare with its .expected (trailing white space ignored, as docs/cgs-language.md says).
# Cases under DIR/bad/ must fail: exit status 2, nothing on stdout, and stderr equal to the
# .err file (a FILE:LINE:COL message). $VALGRIND, when set, prefixes every run.
#
# usage: tests/cgroupfs/run.sh CGSIM DIR
set -u
cgsim=$1
dir=$2
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

strip() { sed -e 's/[[:space:]]*$//' "$1"; }

for sem in v2 rfc2017 v1; do
    for cgs in "$dir/$sem"/*.cgs; do
        [ -e "$cgs" ] || continue
        exp=${cgs%.cgs}.expected
        if [ ! -f "$exp" ]; then
            echo "FAIL $cgs: no $(basename "$exp")"; fail=$((fail + 1)); continue
        fi
        ${VALGRIND:-} "$cgsim" cgroupfs --semantics "$sem" "$cgs" >"$tmp/out" 2>"$tmp/err"
        status=$?
        if [ "$status" -ne 0 ]; then
            echo "FAIL $cgs: exit status $status ($(head -c 300 "$tmp/err"))"; fail=$((fail + 1)); continue
        fi
        if diff -u <(strip "$exp") <(strip "$tmp/out") >"$tmp/diff"; then
            pass=$((pass + 1))
        else
            echo "FAIL $cgs"; sed -e 's/^/    /' "$tmp/diff"; fail=$((fail + 1))
        fi
    done
done

# The scenarios' own .cgs files (the thread-mode tour of `make demo`) against reviewed output.
for exp in "$dir"/scenarios/*.expected; do
    [ -e "$exp" ] || continue
    cgs=scenarios/$(basename "${exp%.expected}").cgs
    ${VALGRIND:-} "$cgsim" cgroupfs "$cgs" >"$tmp/out" 2>"$tmp/err"
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "FAIL $cgs: exit status $status ($(head -c 300 "$tmp/err"))"; fail=$((fail + 1)); continue
    fi
    if diff -u <(strip "$exp") <(strip "$tmp/out") >"$tmp/diff"; then
        pass=$((pass + 1))
    else
        echo "FAIL $cgs"; sed -e 's/^/    /' "$tmp/diff"; fail=$((fail + 1))
    fi
done

for cgs in "$dir"/bad/*.cgs; do
    [ -e "$cgs" ] || continue
    want=${cgs%.cgs}.err
    sem=v2
    first=$(head -n 1 "$cgs")
    case $first in "# semantics: "*) sem=${first#\# semantics: } ;; esac
    ${VALGRIND:-} "$cgsim" cgroupfs --semantics "$sem" "$cgs" >"$tmp/out" 2>"$tmp/err"
    status=$?
    if [ "$status" -ne 2 ]; then
        echo "FAIL $cgs: exit status $status, expected 2"; fail=$((fail + 1)); continue
    fi
    if [ -s "$tmp/out" ]; then
        echo "FAIL $cgs: wrote to stdout although the script is malformed"; fail=$((fail + 1)); continue
    fi
    if diff -u "$want" "$tmp/err" >"$tmp/diff"; then
        pass=$((pass + 1))
    else
        echo "FAIL $cgs"; sed -e 's/^/    /' "$tmp/diff"; fail=$((fail + 1))
    fi
done

echo "cgs cases: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
