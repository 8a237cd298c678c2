#!/bin/sh
# tests/run-scale-out.sh CGSIM - compare --jobs N (docs/scale-out.md): workers give the bytes of
# the comparison run in one process (stdout in each format, every file of -o DIR, traces);
# failures name the run and write nothing. Run from the repository root.
set -u
CGSIM=$1
case $CGSIM in /*) ;; *) CGSIM=$PWD/$CGSIM ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgsim-scale.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# $1 and $2 hold the same files with the same bytes, and no others
same_dir() { diff -r "$1" "$2" > "$tmp/diff" 2>&1; }

# A sweep (7 values) x 2 variants: 16 runs; and 4 seeds of bursty-mix's variants.
Z=scenarios/zijlstra-root-vm.yaml
B=scenarios/bursty-mix.yaml

# --jobs N: the same bytes on stdout, in every format, for every N
for fmt in "" --markdown --json; do
	"$CGSIM" compare "$Z" $fmt > "$tmp/one$fmt" 2> "$tmp/one.err"
	for j in 2 3 0; do
		"$CGSIM" compare "$Z" $fmt --jobs $j > "$tmp/j$j$fmt" 2> "$tmp/j.err"; st=$?
		[ $st -eq 0 ] && cmp -s "$tmp/one$fmt" "$tmp/j$j$fmt" && cmp -s "$tmp/one.err" "$tmp/j.err" \
			&& ok || bad "compare $fmt --jobs $j: exit $st, or not the bytes of --jobs 1"
	done
done
# with seeds (each variant's seeds summed up) and -o DIR: every file the same
"$CGSIM" compare "$B" --seeds 4 -o "$tmp/s1" > "$tmp/s1.out"
"$CGSIM" compare "$B" --seeds 4 --jobs 2 -o "$tmp/s2" > "$tmp/s2.out"; st=$?
sed "s|$tmp/s2|$tmp/s1|" "$tmp/s2.out" | cmp -s - "$tmp/s1.out" && same_dir "$tmp/s1" "$tmp/s2" \
	&& [ $st -eq 0 ] && ok || bad "compare --seeds 4 --jobs 2 -o DIR: exit $st, $(head -5 "$tmp/diff")"
"$CGSIM" compare "$Z" --seeds 2 --jobs 2 -o "$tmp/zs2" > /dev/null && \
	"$CGSIM" compare "$Z" --seeds 2 -o "$tmp/zs1" > /dev/null && same_dir "$tmp/zs1" "$tmp/zs2" \
	&& ok || bad "sweep with --seeds 2 --jobs 2 -o DIR: $(head -5 "$tmp/diff")"
# traces made in workers are the traces made here
"$CGSIM" compare "$B" --trace -o "$tmp/t1" > /dev/null
"$CGSIM" compare "$B" --trace --jobs 2 -o "$tmp/t2" > /dev/null; st=$?
[ $st -eq 0 ] && same_dir "$tmp/t1" "$tmp/t2" && [ -s "$tmp/t2/base/trace.txt" ] \
	&& ok || bad "compare --trace --jobs 2: exit $st, $(head -5 "$tmp/diff")"

# a run that fails at one sweep value fails the command, names the run, writes nothing; the
# message is the one --jobs 1 gives, whichever worker ends first
F=tests/cli/sweep-run-fails.yaml
"$CGSIM" compare "$F" -o "$tmp/f1" > "$tmp/f1.out" 2> "$tmp/f1.err"; st1=$?
"$CGSIM" compare "$F" -o "$tmp/f2" --jobs 3 > "$tmp/f2.out" 2> "$tmp/f2.err"; st2=$?
[ $st1 -eq 2 ] && [ $st2 -eq 2 ] && [ ! -e "$tmp/f1" ] && [ ! -e "$tmp/f2" ] && [ ! -s "$tmp/f2.out" ] \
	&& cmp -s "$tmp/f1.err" "$tmp/f2.err" \
	&& grep -qx 'cgsim: in run 5 of 6 (variant base, cgroups.g.cpu.weight=0, seed 1)' "$tmp/f2.err" \
	&& ok || bad "a failing sweep value: exit $st1/$st2, $(cat "$tmp/f1.err" "$tmp/f2.err")"
# a run over the work limit in a worker
"$CGSIM" compare "$B" --jobs 2 --max-events 1000 > /dev/null 2> "$tmp/w.err"; st=$?
[ $st -eq 2 ] && grep -q "the work limit" "$tmp/w.err" && grep -q "^cgsim: in run 1 of " "$tmp/w.err" \
	&& ok || bad "--max-events in a worker: exit $st, $(cat "$tmp/w.err")"
# usage errors
for args in "--jobs -1" "--jobs 1025" "--jobs x"; do
	"$CGSIM" compare "$Z" $args > "$tmp/u.out" 2> "$tmp/u.err"; st=$?
	[ $st -eq 2 ] && [ ! -s "$tmp/u.out" ] && [ ! -e "$tmp/u" ] && grep -q "^usage: cgsim compare" "$tmp/u.err" \
		&& ok || bad "compare $args: exit $st, $(cat "$tmp/u.err")"
done

echo "scale-out: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
