#!/bin/sh
# tests/scale-out/run.sh CGSIM - compare --jobs N, --shard I/N and cgsim merge (docs/scale-out.md):
# every route gives the bytes of the comparison run in one process (stdout in each format, every
# file of -o DIR, traces); failures name the run and write nothing; merge refuses shards that
# are missing, doubled, tampered with or from another job list; the GNU parallel and Slurm
# recipes of the docs work as written. Run from the repository root.
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
# a worker that dies (killed here as soon as it exists) fails the command with the signal and
# the run it held, and nothing is written; the other worker is reaped, no process is left
D=scenarios/depth-overhead.yaml
"$CGSIM" compare "$D" --set duration=60s --seeds 4 --jobs 2 -o "$tmp/k" > "$tmp/k.out" 2> "$tmp/k.err" &
cg=$!
w=
for _ in $(seq 200); do
	w=$(pgrep -P $cg | head -n 1)
	[ -n "$w" ] && break
	sleep 0.05
done
[ -n "$w" ] && kill -KILL "$w"
wait $cg; st=$?
[ -n "$w" ] && [ $st -eq 2 ] && [ ! -e "$tmp/k" ] && [ ! -s "$tmp/k.out" ] \
	&& grep -qx 'cgsim: the worker was killed by signal 9 (Killed)' "$tmp/k.err" \
	&& grep -q '^cgsim: in run [0-9]* of 40 (' "$tmp/k.err" && [ -z "$(pgrep -f "$tmp/k")" ] \
	&& ok || bad "a killed worker: worker '$w', exit $st, $(cat "$tmp/k.err")"
# usage errors
for args in "--jobs -1" "--jobs 1025" "--jobs x" "--shard 0/2" "--shard 3/2" "--shard 1" \
	"--shard 1/100001" "--shard 1/2" "--shard 1/2 --json -o $tmp/u" "--shard 1/2 --trace -o $tmp/u"; do
	"$CGSIM" compare "$Z" $args > "$tmp/u.out" 2> "$tmp/u.err"; st=$?
	[ $st -eq 2 ] && [ ! -s "$tmp/u.out" ] && [ ! -e "$tmp/u" ] && grep -q "^usage: cgsim compare" "$tmp/u.err" \
		&& ok || bad "compare $args: exit $st, $(cat "$tmp/u.err")"
done

# shards merged are the unsharded comparison, byte for byte, for any N (even N > runs)
"$CGSIM" compare "$Z" --seeds 2 -o "$tmp/whole" > "$tmp/whole.out"
"$CGSIM" compare "$Z" --seeds 2 --json > "$tmp/whole.json"
for n in 1 3 50; do
	i=1
	mkdir -p "$tmp/sh$n"
	while [ $i -le $n ]; do
		"$CGSIM" compare "$Z" --seeds 2 --shard $i/$n -o "$tmp/sh$n/$i" > /dev/null || bad "shard $i/$n"
		i=$((i + 1))
	done
	"$CGSIM" merge "$tmp"/sh$n/* -o "$tmp/m$n" > "$tmp/m$n.out"; st=$?
	sed "s|$tmp/m$n|$tmp/whole|" "$tmp/m$n.out" | cmp -s - "$tmp/whole.out" \
		&& same_dir "$tmp/whole" "$tmp/m$n" && [ $st -eq 0 ] \
		&& ok || bad "merge of $n shards: exit $st, $(head -5 "$tmp/diff")"
	"$CGSIM" merge "$tmp"/sh$n/* --json | cmp -s - "$tmp/whole.json" \
		&& ok || bad "merge --json of $n shards"
done
# a shard's manifest names the scenario by the digest sha256sum gives
grep -q "\"scenario_sha256\": \"$(sha256sum < "$Z" | cut -d' ' -f1)\"" "$tmp/sh3/1/shard.json" \
	&& grep -q '"shard": 1,' "$tmp/sh3/1/shard.json" && grep -q '"shards": 3,' "$tmp/sh3/1/shard.json" \
	&& grep -q '"jobs": 48,' "$tmp/sh3/1/shard.json" \
	&& ok || bad "shard.json: $(cat "$tmp/sh3/1/shard.json")"
# the shard's runs are 1, 4, 7, ...: dealt round the shards
[ "$(ls "$tmp/sh3/2" | grep -c '^run-')" -eq 16 ] && [ -e "$tmp/sh3/2/run-000005.txt" ] \
	&& ok || bad "shard 2 of 3 holds $(ls "$tmp/sh3/2")"
# a shard with workers holds the same bytes
"$CGSIM" compare "$Z" --seeds 2 --shard 2/3 --jobs 2 -o "$tmp/sh3j" > /dev/null \
	&& same_dir "$tmp/sh3/2" "$tmp/sh3j" && ok || bad "--shard 2/3 --jobs 2: $(head -5 "$tmp/diff")"

# the timeline's refusals on stderr and --strict's exit status, as compare gives them
T=tests/cli/timeline-refused.yaml
"$CGSIM" compare "$T" --strict > "$tmp/tr.out" 2> "$tmp/tr.err"; st1=$?
mkdir -p "$tmp/trs"
"$CGSIM" compare "$T" --shard 1/2 -o "$tmp/trs/1" > /dev/null 2>&1
"$CGSIM" compare "$T" --shard 2/2 -o "$tmp/trs/2" > /dev/null 2>&1
"$CGSIM" merge "$tmp/trs/1" "$tmp/trs/2" --strict > "$tmp/trm.out" 2> "$tmp/trm.err"; st2=$?
[ $st1 -eq 1 ] && [ $st2 -eq 1 ] && [ -s "$tmp/tr.err" ] && cmp -s "$tmp/tr.err" "$tmp/trm.err" \
	&& cmp -s "$tmp/tr.out" "$tmp/trm.out" \
	&& ok || bad "merge --strict of a refused timeline operation: exit $st1/$st2, $(cat "$tmp/trm.err")"

# the scenario's copy is named alike when shard and merge see an odd extension (x.y-z): both
# take it from the name shard.json records
cp "$B" "$tmp/odd.y-z"
"$CGSIM" compare "$tmp/odd.y-z" --shard 1/1 -o "$tmp/oddsh" > /dev/null \
	&& "$CGSIM" merge "$tmp/oddsh" > "$tmp/odd.out" && "$CGSIM" compare "$tmp/odd.y-z" | cmp -s - "$tmp/odd.out" \
	&& [ -e "$tmp/oddsh/scenario.yaml" ] && ok || bad "shard of a scenario named x.y-z: $(ls "$tmp/oddsh")"
cp "$B" "$tmp/rt.json.yaml"
"$CGSIM" compare "$tmp/rt.json.yaml" --shard 1/1 -o "$tmp/extsh" > /dev/null \
	&& [ -e "$tmp/extsh/scenario.yaml" ] && "$CGSIM" merge "$tmp/extsh" > /dev/null \
	&& ok || bad "shard of a scenario named x.json.yaml: $(ls "$tmp/extsh")"

# merge refuses, with exit 2 and nothing written: a missing shard, one given twice, shards of
# another list, a tampered scenario or run, something that is no shard
merge_refused() {
	what=$1 want=$2; shift 2
	rm -rf "$tmp/mo"
	"$CGSIM" merge "$@" -o "$tmp/mo" > "$tmp/mo.out" 2> "$tmp/mo.err"; st=$?
	[ $st -eq 2 ] && [ ! -e "$tmp/mo" ] && [ ! -s "$tmp/mo.out" ] && grep -q -- "$want" "$tmp/mo.err" \
		&& ok || bad "merge, $what: exit $st, $(cat "$tmp/mo.err")"
}
merge_refused "a missing shard" "^cgsim: shard 2 of 3 is missing: runs 2, 5, ... (the first: variant base, seed 2)" \
	"$tmp/sh3/1" "$tmp/sh3/3"
merge_refused "a doubled shard" "^cgsim: shard 2 of 3 given twice: " "$tmp/sh3/1" "$tmp/sh3/2" "$tmp/sh3j" "$tmp/sh3/3"
"$CGSIM" compare "$Z" --seeds 3 --shard 2/3 -o "$tmp/other" > /dev/null
merge_refused "another job list" "do not belong together: their job lists differ" "$tmp/sh3/1" "$tmp/other" "$tmp/sh3/3"
"$CGSIM" compare "$Z" --seeds 2 --shard 2/4 -o "$tmp/four" > /dev/null
merge_refused "another shard count" "do not belong together" "$tmp/sh3/1" "$tmp/four" "$tmp/sh3/3"
cp -r "$tmp/sh3/2" "$tmp/tamper"
sed -i 's/cpu.weight: 100/cpu.weight: 101/' "$tmp/tamper/scenario.yaml"
merge_refused "a changed scenario" "is not the scenario the shard was run from" "$tmp/sh3/1" "$tmp/tamper" "$tmp/sh3/3"
cp -r "$tmp/sh3/2" "$tmp/tamper2"
sed -i '3s/^\([a-z_]*\) .*/\1 banana/' "$tmp/tamper2/run-000002.txt"
merge_refused "a malformed run" "run-000002.txt:3:10: error: expected jain" "$tmp/sh3/1" "$tmp/tamper2" "$tmp/sh3/3"
cp -r "$tmp/sh3/2" "$tmp/tamper3"
rm "$tmp/tamper3/run-000005.txt"
merge_refused "a run file gone" "run-000005.txt" "$tmp/sh3/1" "$tmp/tamper3" "$tmp/sh3/3"
cp -r "$tmp/sh3/2" "$tmp/tamper4"
sed -i 's/"runs": \[2, /"runs": [/' "$tmp/tamper4/shard.json"
merge_refused "a shard without its part" "shard 2 of 3 should hold runs 2, 5, ..." "$tmp/sh3/1" "$tmp/tamper4" "$tmp/sh3/3"
sed -i 's/"cgsim_version": "/"cgsim_version": "x/' "$tmp/tamper4/shard.json"
merge_refused "another version" "do not belong together: their cgsim versions differ" "$tmp/sh3/1" "$tmp/tamper4"
mkdir -p "$tmp/empty"
merge_refused "no shard" "cannot open shard.json" "$tmp/empty"
printf '{ "cgsim_shard": 1 ' > "$tmp/empty/shard.json"
merge_refused "bad JSON" "shard.json: error: not JSON" "$tmp/empty"
printf '{ "cgsim_shard": 2 }' > "$tmp/empty/shard.json"
merge_refused "another format" "this cgsim reads shard format 1" "$tmp/empty"
"$CGSIM" merge > /dev/null 2> "$tmp/mu.err"; st=$?
[ $st -eq 2 ] && grep -q "no shard directory given" "$tmp/mu.err" && ok || bad "merge with no directory: exit $st"

# The GNU parallel recipes of docs/scale-out.md, as written there, on localhost; the gnuplot
# scripts named by CGSIM_PLOTS, since a cgsim under build/ finds none beside it
if command -v parallel > /dev/null 2>&1; then
	root=$PWD
	mkdir -p "$tmp/bin" && ln -s "$CGSIM" "$tmp/bin/cgsim"
	(
		cd "$tmp" && mkdir -p p1/scenarios && cp "$root/$Z" p1/scenarios/ && cd p1 &&
		PATH=$tmp/bin:$PATH && CGSIM_PLOTS=$root/plots && export PATH CGSIM_PLOTS &&
		mkdir -p shards &&
		parallel --jobs 4 cgsim compare scenarios/zijlstra-root-vm.yaml --seeds 10 \
			--shard {}/4 -o shards/{} ::: 1 2 3 4 > /dev/null &&
		cgsim merge shards/* -o out > merged.txt &&
		cgsim compare scenarios/zijlstra-root-vm.yaml --seeds 10 --jobs 2 -o out > whole.txt
	) && cmp -s "$tmp/p1/merged.txt" "$tmp/p1/whole.txt" \
		&& ok || bad "the GNU parallel recipe on one machine"
	(
		cd "$tmp" && mkdir -p p2/scenarios && cp "$root/$Z" p2/scenarios/ && cd p2 &&
		PATH=$tmp/bin:$PATH && CGSIM_PLOTS=$root/plots && export PATH CGSIM_PLOTS &&
		echo : > hosts &&
		parallel --sshloginfile hosts --workdir . --transferfile scenarios/zijlstra-root-vm.yaml \
			--return shards/{} --cleanup \
			'mkdir -p shards && cgsim compare scenarios/zijlstra-root-vm.yaml --seeds 10 --shard {}/16 -o shards/{}' \
			::: $(seq 16) > /dev/null 2> "$tmp/p2.err" &&
		cgsim merge shards/* -o out > merged.txt
	) && cmp -s "$tmp/p2/merged.txt" "$tmp/p1/whole.txt" \
		&& ok || bad "the GNU parallel recipe with --sshloginfile (local)"
else
	echo "scale-out: GNU parallel is not installed (make deps installs it): its recipes not tested"
fi

# The Slurm recipe: each array task's command line as Slurm would run it, then the merge
S=docs/examples
(
	i=1
	while [ $i -le 5 ]; do
		SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=5 CGSIM=$CGSIM \
			sh $S/sweep-shard.sbatch "$Z" "$tmp/slurm" "--seeds 2" > /dev/null || exit 1
		i=$((i + 1))
	done
	CGSIM=$CGSIM sh $S/sweep-merge.sbatch "$tmp/slurm" "$tmp/slurm-out" > "$tmp/slurm.txt"
) && sed "s|$tmp/slurm-out|$tmp/whole|" "$tmp/slurm.txt" | cmp -s - "$tmp/whole.out" \
	&& same_dir "$tmp/whole" "$tmp/slurm-out" && ok || bad "the Slurm recipe: $(head -5 "$tmp/diff")"
env -u SLURM_ARRAY_TASK_ID CGSIM=$CGSIM sh $S/sweep-shard.sbatch "$Z" "$tmp/slurm2" > /dev/null 2> "$tmp/sl.err"; st=$?
[ $st -ne 0 ] && [ ! -e "$tmp/slurm2" ] && grep -q "Slurm array task" "$tmp/sl.err" \
	&& ok || bad "the shard script outside Slurm: exit $st"

echo "scale-out: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
