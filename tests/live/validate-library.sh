#!/bin/sh
# tests/live/validate-library.sh [CGSIM] - `cgsim validate --live` on every scenario of the
# library (or those named in $SCENARIOS) that the running machine can take: each is run with
# --reps 3 (--reps from $REPS) and its table printed; scenarios the kernel cannot be given here
# are listed with the reason. A summary line per scenario ends the output: OK, OUTSIDE (a row
# beyond the tolerance) or REFUSED; then whether anything was left behind (a cgsim-* cgroup, a
# cgsim-live process, the autogroup switch changed), which makes the exit status 1.
# rt-app files are run with rt-app itself (docs/live.md); $ARGS is added to every validate,
# e.g. SCENARIOS="tests/rtapp/cases/*.json" ARGS="--set machine.cpus=2 --set duration=6s".
# Developer tool, never run by make test: needs root, a cpu controller and a quiet machine (no
# build or test running), and takes about reps x duration per scenario.
set -u
CGSIM=${1:-./cgsim}
REPS=${REPS:-3}
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cd "$root" || exit 2
[ "$(id -u)" -eq 0 ] || { echo "$0: needs root" >&2; exit 2; }
summary=$(mktemp) || exit 2
trap 'rm -f "$summary"' EXIT
autogroup=$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)
uname -r
date -u '+%Y-%m-%d %H:%M UTC'
for f in ${SCENARIOS:-scenarios/*.yaml}; do
	# shellcheck disable=SC2086 # $ARGS is a list of arguments
	out=$("$CGSIM" validate "$f" --live --reps "$REPS" ${ARGS:-} 2>&1); st=$?
	case $st in
	0) verdict=OK ;;
	1) verdict=OUTSIDE ;;
	*) verdict="REFUSED: $(printf '%s\n' "$out" | tail -n 1)" ;;
	esac
	[ $st -le 1 ] && printf '%s\n\n' "$out"
	name=$(basename "$f"); name=${name%.yaml}; name=${name%.json}
	printf '%-28s %s\n' "$name" "$verdict" >> "$summary"
done
cat "$summary"
left=
for m in /sys/fs/cgroup/cpu /sys/fs/cgroup/unified /sys/fs/cgroup; do
	ls -d "$m"/cgsim-* > /dev/null 2>&1 && left="$left cgroups in $m;"
done
pgrep -x cgsim-live > /dev/null && left="$left cgsim-live processes;"
pgrep -x rt-app > /dev/null && left="$left rt-app processes;"
ls -d /tmp/cgsim-*-rtapp-* > /dev/null 2>&1 && left="$left rt-app scratch directories;"
[ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" = "$autogroup" ] || \
	left="$left autogroup changed;"
if [ -n "$left" ]; then
	echo "LEFT BEHIND:$left"
	exit 1
fi
echo "nothing left behind"
