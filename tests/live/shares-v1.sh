#!/bin/bash
# tests/live/shares-v1.sh - CPU shares measured on the running kernel, for comparison with
# cgsim's scenarios/v1-*.yaml. Developer tool: needs root, the cgroup v1 cpu controller at
# /sys/fs/cgroup/cpu and an otherwise idle machine; never run by make test.
#
#   tests/live/shares-v1.sh [SECONDS]        default 10
#
# Layouts (all under a scratch parent cgroup, removed at the end; only processes this script
# starts are moved):
#   zijlstra: 4 busy processes in the parent itself next to child "vm" (cpu.shares 1024) with 2
#             busy processes (the v1 version of scenarios/zijlstra-root-vm.yaml: the parent
#             plays the root, without autogroup, since autogroup applies to the root only)
#   nested:   children a (1024) {x: 1024, y: 3072} and b (1024), 2 busy processes in x, y, b
#   quota:    child lim (cfs_quota_us 50000 per 100000) and child free, 2 busy processes each
#             (scenarios/bandwidth.yaml)
# Shares are of the whole machine (nproc CPUs), from utime+stime of /proc/PID/stat.
set -eu
SECS=${1:-10}
CG=/sys/fs/cgroup/cpu
P=$CG/cgsim-live-$$
NCPU=$(nproc)
HZ=$(getconf CLK_TCK)
pids=()

cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	for d in $(find "$P" -depth -type d 2>/dev/null); do rmdir "$d" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

LAST=
busy() {	# busy CGROUP: start a busy loop in it; its pid in $LAST
	sh -c 'while :; do :; done' > /dev/null 2>&1 &
	LAST=$!
	echo "$LAST" > "$1/tasks"
	pids+=("$LAST")
}

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

measure() {	# measure NAME:PID... : print each name's share of the machine over SECS
	local -A t0
	for np in "$@"; do t0[$np]=$(ticks "${np#*:}"); done
	sleep "$SECS"
	local -A sum
	for np in "$@"; do
		local n=${np%%:*} d=$(( $(ticks "${np#*:}") - ${t0[$np]} ))
		sum[$n]=$(( ${sum[$n]:-0} + d ))
	done
	for n in $(printf '%s\n' "${!sum[@]}" | sort); do
		awk -v n="$n" -v t="${sum[$n]}" -v hz="$HZ" -v s="$SECS" -v c="$NCPU" \
			'BEGIN { printf "  %-6s %.4f\n", n, t / hz / s / c }'
	done
}

stop_all() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; pids=(); }

mkdir "$P"
echo "zijlstra ($NCPU CPUs, $SECS s):"
mkdir "$P/vm"; echo 1024 > "$P/vm/cpu.shares"
args=()
for i in 1 2 3 4; do busy "$P"; args+=("app:$LAST"); done
for i in 1 2; do busy "$P/vm"; args+=("vm:$LAST"); done
sleep 1
measure "${args[@]}"
stop_all

echo "nested ($NCPU CPUs, $SECS s):"
mkdir -p "$P/a/x" "$P/a/y" "$P/b"
echo 1024 > "$P/a/cpu.shares"; echo 1024 > "$P/a/x/cpu.shares"; echo 3072 > "$P/a/y/cpu.shares"
echo 1024 > "$P/b/cpu.shares"
args=()
for g in a/x a/y b; do for i in 1 2; do busy "$P/$g"; args+=("${g//\//.}:$LAST"); done; done
sleep 1
measure "${args[@]}"
stop_all

echo "quota ($NCPU CPUs, $SECS s):"
mkdir "$P/lim" "$P/free"
echo 100000 > "$P/lim/cpu.cfs_period_us"; echo 50000 > "$P/lim/cpu.cfs_quota_us"
args=()
for g in lim free; do for i in 1 2; do busy "$P/$g"; args+=("$g:$LAST"); done; done
sleep 1
measure "${args[@]}"
