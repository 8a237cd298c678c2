#!/bin/sh
# tests/vm/run.sh CGSIM - real kernels under QEMU (docs/vm.md), in make test: each layout's
# measured shares against the shares its rules give (not against the simulation's column), the
# domains an 8-vCPU guest of 2 sockets x 2 cores x 2 threads builds, a 4-vCPU guest in two NUMA
# nodes against the rules and the model's column, and the thread-mode tour
# replayed at a guest's cgroup2 root with the threaded controllers on. Needs qemu-system-x86 and
# busybox-static (make deps); fetches Debian's 6.12 kernel into the cache on its first run.
# Linux 7.3's cgroup_mode: Debian's 7.3 (fetched into the cache too) runs the headline layout
# in concur and in smp. Fetching checks that the host's apt state stays as it was.
# About two and a half minutes: eight guests of 4-7 s to boot, 6 s windows, one repetition
# each (three for the 8- and the 4-vCPU guests with topologies); two more stopped by a signal.
set -u
CGSIM=${1:-./cgsim}
pass=0 fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

"$CGSIM" validate --fetch-kernel > "$tmp/kernel" || { echo "vm: no guest kernel"; exit 1; }
echo "vm: guest kernel $(cut -f1 "$tmp/kernel")"

# measured KIND:NAME FILE: the measured share of that row in validate --json's FILE
measured() {
	sed -n "s|.*\"kind\": \"${1%%:*}\", \"name\": \"${1#*:}\", \"simulated\": [0-9.]*, \"measured\": \([0-9.]*\).*|\1|p" "$2"
}
# near WHAT NAME WANT FILE ALL...: NAME's measured share as a part of what the rows ALL (which
# partition the scenario's threads) measured, within 1.5 points of WANT. A part, not the share
# of capacity: what the guest's own threads and a busy host take from the vCPUs is "other
# work" (validate's own line) and falls on every thread alike; the layout's rules give parts.
near() {
	what=$1 v=$(measured "$2" "$4") want=$3 f=$4 sum=0; shift 4
	for n in "$@"; do sum="$sum + $(measured "$n" "$f")"; done
	sum=$(awk "BEGIN { print $sum }")
	awk -v v="$v" -v s="$sum" -v w="$want" 'BEGIN {
		if (v == "" || s <= 0) exit 1
		d = 100 * (v / s - w); exit !(d <= 1.5 && d >= -1.5) }' \
		&& ok || bad "$what: measured '$v' of '$sum', the rules give $want of it (1.5 points)"
}
# guest NAME REPS SCENARIO ARGS...: validate --vm --json into $tmp/NAME.json
guest() {
	name=$1 reps=$2 sc=$3; shift 3
	"$CGSIM" validate "$sc" --vm --json --reps "$reps" --set duration=6s --set warmup=1s "$@" \
		> "$tmp/$name.json" 2> "$tmp/$name.err"; st=$?
	[ $st -le 1 ] || { bad "$name: exit $st: $(tail -n 3 "$tmp/$name.err")"; return 1; }
	grep -q '"hierarchy": "v2"' "$tmp/$name.json" && ok || bad "$name: not on cgroup v2"
}

# Zijlstra's root layout: 4 root threads of weight 1024 beside a group of 1024: vm 1/5.
if guest zijlstra 1 scenarios/zijlstra-root-vm.yaml; then
	near "zijlstra: vm" group:vm 0.20 "$tmp/zijlstra.json" group:vm process:app
	near "zijlstra: app/worker.1" thread:app/worker.1 0.20 "$tmp/zijlstra.json" group:vm process:app
fi
# Heo's interposed layout: two groups of equal weight, 1/2 each.
if guest interposed 1 scenarios/interposed.yaml; then
	near "interposed: app" group:app 0.50 "$tmp/interposed.json" group:app group:vm
	near "interposed: qemu/vcpu.1" thread:qemu/vcpu.1 0.25 "$tmp/interposed.json" group:app group:vm
fi
# Thread mode: one process's threads in threaded siblings of weight 100 and 300 on one CPU.
if guest threaded 1 scenarios/threaded-subtree.yaml; then
	near "threaded: dom/t1" group:dom/t1 0.25 "$tmp/threaded.json" group:dom/t1 group:dom/t2
	near "threaded: app/worker.1" thread:app/worker.1 0.0833 "$tmp/threaded.json" group:dom/t1 group:dom/t2
fi
# 2 sockets x 2 cores x 2 threads: QEMU numbers SMT siblings 0-1, a socket's cores 0-3. Three
# repetitions: in one 5 s window the kernel may leave the 16 threads unevenly spread (one run of
# a fresh clone's make test gave group a 0.4828 of the threads' time), as docs/live.md says.
if guest smt 3 tests/vm/smt-two-groups.yaml; then
	near "smt: a" group:a 0.50 "$tmp/smt.json" group:a group:b
	near "smt: pa/w.1" thread:pa/w.1 0.0625 "$tmp/smt.json" group:a group:b
	for d in '"cpu": 0, "level": 0, "name": "SMT", "span": "0-1"' \
		 '"cpu": 0, "level": 1, "name": "MC", "span": "0-3"' \
		 '"cpu": 0, "level": 2, "name": "PKG", "span": "0-7"' \
		 '"cpu": 5, "level": 0, "name": "SMT", "span": "4-5"' \
		 '"sockets": 2, "dies": 1, "cores": 2, "threads": 2'; do
		grep -qF "$d" "$tmp/smt.json" && ok || bad "smt: no $d in the guest's report"
	done
	grep -q '"name": "SMT".*SD_SHARE_CPUCAPACITY' "$tmp/smt.json" && ok ||
		bad "smt: the SMT level without SD_SHARE_CPUCAPACITY"
fi
# 2 sockets x 2 cores in 2 nodes: MC and NUMA levels. The model balances over the same domains
# and must give what the kernel gives: its simulated column against the same rules, and the
# NUMA level's report.
# simulated KIND:NAME FILE: the simulated share of that row
simulated() {
	sed -n "s|.*\"kind\": \"${1%%:*}\", \"name\": \"${1#*:}\", \"simulated\": \([0-9.]*\).*|\1|p" "$2"
}
if guest numa 3 tests/vm/numa-weights-1-3.yaml; then
	near "numa: a" group:a 0.25 "$tmp/numa.json" group:a group:b
	near "numa: pb/w.1" thread:pb/w.1 0.1875 "$tmp/numa.json" group:a group:b
	awk -v v="$(simulated group:a "$tmp/numa.json")" 'BEGIN { exit !(v >= 0.235 && v <= 0.265) }' &&
		ok || bad "numa: the model gives group a $(simulated group:a "$tmp/numa.json"), not 0.25"
	grep -qF '"cpu": 0, "level": 1, "name": "NUMA", "span": "0-3"' "$tmp/numa.json" && ok ||
		bad "numa: no NUMA level 0-3 in the guest's report"
fi
# The thread-mode tour at a cgroup2 root that offers cpu, cpuset and pids: the kernel answers
# every operation as the model.
"$CGSIM" cgroupfs --vm scenarios/thread-mode-tour.cgs > "$tmp/tour.out" 2> "$tmp/tour.err"; st=$?
[ $st -eq 0 ] && grep -q ' 0 differently$' "$tmp/tour.out" && ok ||
	bad "cgroupfs --vm thread-mode-tour: exit $st: $(grep -e ' model ' -e differently "$tmp/tour.out" | head -n 5) $(tail -n 2 "$tmp/tour.err")"
# Linux 7.3 (docs/vm.md, "Linux 7.3's cgroup_mode"): the headline layout on 4 vCPUs (4 busy
# threads in the root beside vm, cpu.weight 100, with 4), once in the kernel's default concur
# and once in smp, each set by the guest's init before the layout is made and read back. The
# kernel's answers (docs/vm-results.md): vm gets 0.199 of the machine in smp, as every kernel
# before 7.3; in concur 0.499 in one boot and 0.4285 in another (tg_tasks() counting the
# group's 4 runnable tasks as 3 by its PELT history, 768 against 1024 per CPU): either is the
# kernel's. The model must give them too. The mode is the scenario's scheduler.cgroup_mode.
"$CGSIM" validate --fetch-kernel --kernel-version 7.3 > "$tmp/kernel73" ||
	{ echo "vm: no 7.3 guest kernel"; exit 1; }
echo "vm: guest kernel $(cut -f1 "$tmp/kernel73")"
# near_either WHAT NAME A B FILE ALL...: as near, from 1.5 points below A to 1.5 above B: the
# kernel's count of the group's tasks may change within a window, and its share with it
# (0.441-0.481 in windows on a loaded host, docs/vm-results.md)
near_either() {
	what=$1 v=$(measured "$2" "$5") a=$3 b=$4 f=$5 sum=0; shift 5
	for n in "$@"; do sum="$sum + $(measured "$n" "$f")"; done
	sum=$(awk "BEGIN { print $sum }")
	awk -v v="$v" -v s="$sum" -v a="$a" -v b="$b" 'BEGIN {
		if (v == "" || s <= 0) exit 1
		exit !(100 * (v / s - a) >= -1.5 && 100 * (v / s - b) <= 1.5) }' \
		&& ok || bad "$what: measured '$v' of '$sum', the kernel gives $a to $b of it (1.5 points)"
}
# sim_either WHAT NAME FILE A [B]: the model's share within 1.5 points of A or B
sim_either() {
	awk -v v="$(simulated "$2" "$3")" -v a="$4" -v b="${5:-$4}" 'BEGIN {
		if (v == "") exit 1
		exit !((v - a <= 0.015 && a - v <= 0.015) || (v - b <= 0.015 && b - v <= 0.015)) }' &&
		ok || bad "$1: the model gives $(simulated "$2" "$3"), the kernel ${4}${5:+ or $5}"
}
# the guest's kernel and mode, as the report says them, and the kernel the model ran
ran() {	# NAME MODE
	grep -q "\"kernel\": \"7\.3\.[0-9]*[+-][^\"]*\", \"cgroup_mode\": \"$2\", \"cgroup_mode_file\": true, \"modelled_kernel\": \"7\.3[.0-9]*\"" \
		"$tmp/$1.json" && ok || bad "$1: not Linux 7.3 in cgroup_mode $2, or not modelled as it: $(grep -o '"kernel": [^h]*' "$tmp/$1.json")"
}
t0=$(date +%s)
if guest smp73 1 tests/vm/headline-4.yaml --kernel-version 7.3 \
	--set scheduler.cgroup_mode=smp; then
	ran smp73 smp
	near "7.3 smp: vm" group:vm 0.20 "$tmp/smp73.json" group:vm process:app
	sim_either "7.3 smp: vm" group:vm "$tmp/smp73.json" 0.20
	echo "vm: 7.3 guest (smp) booted in $(sed -n 's/.*"boot_s": \([0-9.]*\).*/\1/p' "$tmp/smp73.json") s, $(($(date +%s) - t0)) s in all"
fi
if guest concur73 1 tests/vm/headline-4.yaml --kernel-version 7.3 \
	--set scheduler.cgroup_mode=concur; then
	ran concur73 concur
	near_either "7.3 concur: vm" group:vm 0.4286 0.50 "$tmp/concur73.json" group:vm process:app
	sim_either "7.3 concur: vm" group:vm "$tmp/concur73.json" 0.50 0.4286
fi
# Fetching reads Debian's package lists with an apt configuration of its own: the host's apt
# state is never written (a release no suite has is asked for, which reads only the lists),
# and what cannot be fetched is one line, exit 2, nothing in the cache.
touch "$tmp/mark"
XDG_CACHE_HOME=$tmp/cache "$CGSIM" validate --fetch-kernel --kernel-version 99.1 \
	> "$tmp/f.out" 2> "$tmp/f.err"; st=$?
[ $st -eq 2 ] && [ ! -s "$tmp/f.out" ] &&
	grep -q "^cgsim: Debian has no kernel 99.1 (linux-image-99.1.\*-amd64) in trixie-backports forky sid at " "$tmp/f.err" &&
	ok || bad "fetching 99.1: exit $st: $(cat "$tmp/f.out" "$tmp/f.err")"
changed=$(find /etc/apt /var/lib/apt /var/cache/apt \( -newer "$tmp/mark" -o -cnewer "$tmp/mark" \) \
	2> /dev/null | head -n 3)
[ -z "$changed" ] && ok || bad "fetching a kernel changed the host's apt state: $changed"
[ -z "$(ls -A "$tmp/cache/cgsim/kernels")" ] && ok || bad "fetching 99.1 left $(ls -A "$tmp/cache/cgsim/kernels")"
CGSIM_DEBIAN_MIRROR=http://127.0.0.1:9/debian XDG_CACHE_HOME=$tmp/cache \
	"$CGSIM" validate --fetch-kernel --kernel-version 7.3 > "$tmp/f.out" 2> "$tmp/f.err"; st=$?
[ $st -eq 2 ] && [ ! -s "$tmp/f.out" ] &&
	grep -q "^cgsim: cannot read Debian's package lists (trixie-backports forky sid at http://127.0.0.1:9/debian): E: Failed to fetch " "$tmp/f.err" &&
	ok || bad "fetching from no mirror: exit $st: $(cat "$tmp/f.out" "$tmp/f.err")"
# Stopped: SIGTERM kills QEMU, removes the scratch directory and ends cgsim by that signal;
# after a SIGKILL QEMU dies with cgsim (PR_SET_PDEATHSIG) and validate --cleanup removes the
# scratch directory it left.
scratch=${TMPDIR:-/tmp}
for sig in TERM KILL; do
	"$CGSIM" validate scenarios/interposed.yaml --vm --reps 1 > /dev/null 2> "$tmp/sig.err" &
	p=$!
	sleep 3
	kill -s $sig $p
	{ wait $p; } 2> /dev/null; st=$?
	sleep 1
	want=143; [ $sig = KILL ] && want=137
	[ $st -eq $want ] && ok || bad "SIG$sig: exit $st, not $want"
	pgrep -f "cgsim-vm-$p-" > /dev/null && bad "SIG$sig: QEMU still runs" || ok
	if [ $sig = TERM ]; then
		ls -d "$scratch/cgsim-vm-$p-"* > /dev/null 2>&1 && bad "SIGTERM: scratch left" || ok
	else
		"$CGSIM" validate --cleanup 2> /dev/null | grep -q "^removed $scratch/cgsim-vm-$p-" &&
			! ls -d "$scratch/cgsim-vm-$p-"* > /dev/null 2>&1 && ok ||
			bad "SIGKILL: validate --cleanup did not remove the scratch directory"
	fi
done
echo "vm: $pass passed, $fail failed"
[ $fail -eq 0 ]
