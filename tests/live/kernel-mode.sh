#!/bin/sh
# tests/live/kernel-mode.sh [CGSIM] - the kernel `cgsim validate --live` models (docs/live.md,
# "The kernel modelled"): its release from uname, and Linux 7.3's cgroup_mode read from
# debugfs, which is mounted for that only in a mount namespace of its own where the host has
# none. Checks that the report names the running kernel and the mode it read (before 7.3, as on
# this project's 6.18 hosts: no file, smp), that the simulation modelled that version, and that
# the host's mounts are as they were. Developer tool, never run by make test: needs root and a
# cpu controller; a short layout, about 4 s.
set -u
CGSIM=${1:-./cgsim}
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cd "$root" || exit 2
[ "$(id -u)" -eq 0 ] || { echo "$0: needs root" >&2; exit 2; }
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

mounts() { awk '{ print $5, $(NF - 2) }' /proc/self/mountinfo | sort; }
mounts > "$tmp/before"
"$CGSIM" validate scenarios/zijlstra-root-vm.yaml --live --reps 1 --set duration=3s \
	--set warmup=1s --json > "$tmp/out.json" 2> "$tmp/err"; st=$?
[ $st -le 1 ] && ok || bad "validate --live: exit $st: $(cat "$tmp/err")"
mounts | cmp -s "$tmp/before" - && ok || bad "the host's mounts changed: $(mounts | diff "$tmp/before" -)"
release=$(uname -r)
# MAJOR.MINOR.PATCH at the start of the release (Debian's 6.1 is the exception: see uname -v)
version=$(echo "$release" | sed -n 's/^\([0-9]*\.[0-9]*\)\(\.\([0-9]*\)\)\{0,1\}.*/\1.\3/p' | sed 's/\.$/.0/')
grep -qF "\"kernel\": \"$release\"" "$tmp/out.json" && ok || bad "the report's kernel is not $release"
grep -qF "\"modelled_kernel\": \"$version\"" "$tmp/out.json" && ok ||
	bad "the model did not model $version: $(grep -o '"modelled_kernel": "[^"]*"' "$tmp/out.json")"
if mode=$(cat /sys/kernel/debug/sched/cgroup_mode 2> /dev/null) ||
   mode=$(unshare -m sh -c 'mount --make-rprivate / && mount -t debugfs none /sys/kernel/debug &&
	cat /sys/kernel/debug/sched/cgroup_mode' 2> /dev/null); then
	active=$(echo "$mode" | sed -n 's/.*(\([a-z]*\)).*/\1/p')
	echo "kernel-mode: Linux $release, cgroup_mode $active"
	grep -qF "\"cgroup_mode\": \"$active\", \"cgroup_mode_file\": true" "$tmp/out.json" && ok ||
		bad "the report's cgroup_mode is not $active (read from the file)"
else
	echo "kernel-mode: Linux $release, no cgroup_mode (before 7.3: smp)"
	grep -qF '"cgroup_mode": "smp", "cgroup_mode_file": false' "$tmp/out.json" && ok ||
		bad "the report's cgroup_mode is not smp without the file: $(grep -o '"cgroup_mode[^,]*, [^,]*' "$tmp/out.json")"
fi
echo "kernel-mode: $pass passed, $fail failed"
[ $fail -eq 0 ]
