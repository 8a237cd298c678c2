#!/bin/sh
# tests/vm/library.sh [CGSIM] - `cgsim validate --vm` on the scenario library (docs/vm.md), for
# the table of docs/vm.md. Two parts:
#  1. every scenario of the library (or those in $SCENARIOS) on a guest of its own machine;
#  2. unless $SIZES is empty, layouts of the library grown to the guests of $SIZES (default
#     "4 8 16": 4 flat CPUs; 8 = 2 sockets x 2 cores x 2 threads; 16 = 2 sockets x 2 dies x 2
#     cores x 2 threads in 2 NUMA nodes; 32 and 64 are 2 sockets x 2 or 4 dies x 4 cores x 2
#     threads in 2 nodes), with twice as many busy threads as CPUs so that no
#     CPU idles: Zijlstra's root layout, Heo's interposed one, weights 1:2 (smp-weights-1-2),
#     nested weights and a threaded subtree.
# Each is run with --reps $REPS (default 1) and $ARGS (e.g. "--set duration=4s" for a quick
# pass) and its table printed; a markdown table ends the output, a line per run: the guest, OK
# or OUTSIDE, the rows within 1.5 points, the largest difference in points with its row
# (simulated / measured), or REFUSED and why.
# Developer tool, never run by make test: it takes about 15-30 s per run, and a share
# measurement needs a quiet machine (no build, test or other guest running).
set -u
CGSIM=${1:-./cgsim}
REPS=${REPS:-1}
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cd "$root" || exit 2
summary=$(mktemp) || exit 2
trap 'rm -f "$summary"' EXIT
date -u '+%Y-%m-%d %H:%M UTC'

# one LABEL SCENARIO ARGS...: a validate --vm, its table, its summary line
one() {
	label=$1 f=$2; shift 2
	# shellcheck disable=SC2086 # $ARGS is a list of arguments
	out=$("$CGSIM" validate "$f" --vm --reps "$REPS" "$@" ${ARGS:-} 2>&1); st=$?
	# the rows within the tolerance, and the largest difference with its row
	worst=$(printf '%s\n' "$out" | awk '$1 ~ /^(group|process|thread)$/ && NF >= 7 {
		n++; d = $7 < 0 ? -$7 : $7; if (d <= 1.5) in_++
		if (d >= w) { w = d; sw = $7; at = $1 " " $2 ": " $3 " / " $4 } }
		END { if (n) printf "| %d of %d | %s (%s) |", in_, n, sw, at }')
	case $st in
	0) verdict="OK $worst" ;;
	1) verdict="OUTSIDE $worst" ;;
	*) verdict="REFUSED: $(printf '%s\n' "$out" | tail -n 1) | | |" ;;
	esac
	printf '%s\n\n' "$out"
	name=$(basename "$f"); name=${name%.yaml}; name=${name%.json}
	printf '| %s | %s | %s\n' "$name" "$label" "$verdict" >> "$summary"
}

for f in ${SCENARIOS:-scenarios/*.yaml}; do
	cpus=$(sed -n 's/.*cpus: *\([0-9][0-9]*\).*/\1/p' "$f" | head -n 1)
	one "${cpus:-1} flat" "$f"
done

topo() {	# SIZE: the --set arguments of that guest
	case $1 in
	4) echo "--set machine.cpus=4" ;;
	8) echo "--set machine.cpus=8 --set machine.topology.sockets=2 --set machine.topology.cores=2
		--set machine.topology.threads=2" ;;
	16) echo "--set machine.cpus=16 --set machine.topology.sockets=2 --set machine.topology.dies=2
		--set machine.topology.cores=2 --set machine.topology.threads=2
		--set machine.numa.nodes=2" ;;
	32) echo "--set machine.cpus=32 --set machine.topology.sockets=2 --set machine.topology.dies=2
		--set machine.topology.cores=4 --set machine.topology.threads=2
		--set machine.numa.nodes=2" ;;
	64) echo "--set machine.cpus=64 --set machine.topology.sockets=2 --set machine.topology.dies=4
		--set machine.topology.cores=4 --set machine.topology.threads=2
		--set machine.numa.nodes=2" ;;
	esac
}
label() {
	case $1 in
	4) echo "4 flat" ;;
	8) echo "8 = 2s x 2c x 2t" ;;
	16) echo "16 = 2s x 2d x 2c x 2t, 2n" ;;
	32) echo "32 = 2s x 2d x 4c x 2t, 2n" ;;
	64) echo "64 = 2s x 4d x 4c x 2t, 2n" ;;
	esac
}
for n in ${SIZES-4 8 16}; do
	t=$(topo "$n")
	# shellcheck disable=SC2086 # $t is a list of arguments
	one "$(label "$n")" scenarios/zijlstra-root-vm.yaml $t \
		--set processes.app.threads.worker.count=$((2 * n)) \
		--set processes.qemu.threads.vcpu.count="$n"
	one "$(label "$n")" scenarios/interposed.yaml $t \
		--set processes.app.threads.worker.count=$((2 * n)) \
		--set processes.qemu.threads.vcpu.count="$n"
	one "$(label "$n")" scenarios/smp-weights-1-2.yaml $t \
		--set processes.pa.threads.t.count="$n" --set processes.pb.threads.t.count="$n"
	one "$(label "$n")" scenarios/nested-weights.yaml $t \
		--set processes.px.threads.t.count="$n" --set processes.py.threads.t.count="$n" \
		--set processes.pb.threads.t.count="$n"
	one "$(label "$n")" scenarios/threaded-subtree.yaml $t \
		--set processes.app.threads.worker.count=$((n + n / 2)) \
		--set processes.app.threads.solo.count=$((n / 2))
done
echo "| scenario | guest (vCPUs) | verdict | rows within 1.5 | largest difference (simulated / measured) |"
echo "| --- | --- | --- | --- | --- |"
cat "$summary"
