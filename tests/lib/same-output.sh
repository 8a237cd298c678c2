#!/bin/sh
# tests/lib/same-output.sh [--kernel VERSION] [REV] - does the working tree give every output byte
# that REV gives?
#
# For a change meant to leave behaviour alone (a refactoring): builds REV (default HEAD) in a
# scratch worktree and the working tree as it is, then runs both on the scenario library and
# the cgroupfs cases and compares what they write:
#
#   run --json, for the base and every variant of every scenarios/*.yaml
#   shares --json and check, for every scenario
#   compare -o DIR (tables, every variant's CSV and JSON files, sweep files, render.sh and the
#   gnuplot scripts; the figures themselves are left out: gnuplot writes its version into them)
#   cgroupfs under each rule set, for every .cgs file of scenarios/ and tests/cgroupfs/
#
# Prints each difference and exits 1 when there is one, 0 when every byte is the same, 2 when
# it cannot build or run. Run from anywhere in the repository; needs what `make` needs.
#
# --kernel VERSION compares with a REV from before scenarios named their kernel (docs/kernels.md),
# whose every run modelled 6.18: each side runs its own scenarios/ and tests/ (REV's cannot read
# the working tree's scheduler.kernel), the working tree's run, shares and compare with --set
# scheduler.kernel=VERSION (check takes its kernel from the file), and the lines that name the
# kernel are taken out of the working tree's outputs (the kernel line of each text header, with
# its overrides, the JSON's "kernel", "cgroup_mode" and "overrides", the figures' kernel), as
# is the policy REV's comparison header named where the working tree's names the kernel. What
# is left is the numbers and every other byte.
set -u
kernel=
if [ "${1:-}" = --kernel ]; then
	kernel=${2:?usage: $0 [--kernel VERSION] [REV]}
	shift 2
fi
rev=${1:-HEAD}
root=$(git rev-parse --show-toplevel) || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgsim-same.XXXXXX") || exit 2
cleanup() {
	git -C "$root" worktree remove --force "$tmp/tree" > /dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM

progress() { [ -t 2 ] && printf '\r%-70.70s' "$*" >&2; return 0; }

git -C "$root" worktree add --detach "$tmp/tree" "$rev" > /dev/null 2>&1 ||
	{ echo "same-output: cannot check out $rev" >&2; exit 2; }
progress "building $rev"
make -s -C "$tmp/tree" cgsim > "$tmp/build-base.log" 2>&1 ||
	{ cat "$tmp/build-base.log" >&2; echo "same-output: $rev does not build" >&2; exit 2; }
progress "building the working tree"
make -s -C "$root" cgsim > "$tmp/build-new.log" 2>&1 ||
	{ cat "$tmp/build-new.log" >&2; echo "same-output: the working tree does not build" >&2; exit 2; }

# outputs SIDE CGSIM INPUTS [SET]: everything both sides are compared on, into $tmp/out-SIDE/o.
# Both run in a directory of their own where scenarios/ and tests/ are links to INPUTS' (the
# working tree's, or with --kernel each side's own), so that every path a message or report
# names is the same on both sides; SET, when given, is one --set for run, shares and compare.
outputs() {
	mkdir -p "$tmp/run-$1" "$tmp/out-$1/o"
	ln -s "$3/scenarios" "$tmp/run-$1/scenarios"
	ln -s "$3/tests" "$tmp/run-$1/tests"
	ln -s "$tmp/out-$1/o" "$tmp/run-$1/o"
	out=o
	cgsim=$2
	side=$1
	cd "$tmp/run-$side" || exit 2
	set -- ${4:+--set "$4"}
	for sc in scenarios/*.yaml; do
		name=$(basename "$sc" .yaml)
		progress "$side: $name"
		variants=$(sed -n '/^variants:/,/^[^ #]/s/^  \([A-Za-z0-9_.-]*\):.*/\1/p' "$sc")
		for v in base $variants; do
			"$cgsim" run "$sc" --variant "$v" --json "$@" > "$out/$name.$v.run.json" 2>&1
			echo "exit $?" >> "$out/$name.$v.run.json"
		done
		"$cgsim" shares "$sc" --json "$@" > "$out/$name.shares.json" 2>&1
		echo "exit $?" >> "$out/$name.shares.json"
		"$cgsim" check "$sc" > "$out/$name.check" 2>&1
		echo "exit $?" >> "$out/$name.check"
		"$cgsim" compare "$sc" -o "$out/$name.compare" "$@" > "$out/$name.compare.txt" 2>&1
		echo "exit $?" >> "$out/$name.compare.txt"
		rm -rf "$out/$name.compare/figures"
	done
	for cgs in scenarios/*.cgs $(find tests/cgroupfs -name '*.cgs' | sort); do
		flat=$(echo "$cgs" | tr / _)
		for sem in v2 rfc2017 v1; do
			"$cgsim" cgroupfs --semantics "$sem" "$cgs" > "$out/$flat.$sem" 2>&1
			echo "exit $?" >> "$out/$flat.$sem"
		done
	done
}

if [ -n "$kernel" ]; then
	outputs base "$tmp/tree/cgsim" "$tmp/tree"
	outputs new "$root/cgsim" "$root" "scheduler.kernel=$kernel"
	# the kernel named: out of the working tree's outputs; the policy: out of REV's headers
	find "$tmp/out-new" -type f | while read -r f; do
		sed -i -e '/^  "kernel": "[^"]*", "cgroup_mode": "[^"]*", "overrides": \[[^]]*\],$/d' \
			-e '/^v\?kernel = /d' -e '/^kernel at each value:$/,/^[^ ]/{/^kernel at/d;/^  /d}' \
			-e '/^variants\? .*: kernel [0-9]/d' -e '/^variants\? [^:]*:$/{N;d}' \
			-e '/^kernel [0-9][0-9.]* (/d' \
			-e '/^ *overridden: /{:a;/,$/{N;ba};d}' \
			-e '/^- variants\? .*: kernel [0-9]/d' \
			-e 's/^\(\*\*[^*]*\*\*: [0-9]* CPUs\), kernel [^)]*)[^*]*, \(seeds\? \)/\1, \2/' \
			-e 's/^\(\*\*[^*]*\*\*: [0-9]* CPUs\), kernel by variant, /\1, /' "$f"
	done
	find "$tmp/out-base" -name '*.compare.txt' -o -name 'compare.txt' -o -name 'compare.md' |
		while read -r f; do
			sed -i 's/^\(\(\*\*\)\?[^ *]*\(\*\*\)\?: [0-9]* CPUs\), [a-z-]*, \(seeds\? \)/\1, \4/' "$f"
		done
	# a kernel list taken out of markdown leaves a blank line too many; the figures' scripts
	# (plots/, copied) put the kernel in their titles
	find "$tmp/out-base" "$tmp/out-new" -name 'compare.md' | while read -r f; do
		cat -s "$f" > "$f.s" && mv "$f.s" "$f"
	done
	for g in common latency-ccdf latency-threads shares-bars shares-over-time sweep; do
		find "$tmp/out-base" "$tmp/out-new" -path "*/plots/$g.gp" -exec rm -f {} +
	done
else
	outputs base "$tmp/tree/cgsim" "$root"
	outputs new "$root/cgsim" "$root"
fi
# the JSON says which build made it: that is the one difference two builds may have
grep -rl '"cgsim_version": ' "$tmp/out-base" "$tmp/out-new" 2>/dev/null | while read -r f; do
	sed -i 's/"cgsim_version": "[^"]*"/"cgsim_version": "-"/' "$f"
done
progress ""
[ -t 2 ] && printf '\r' >&2
if diff -r "$tmp/out-base" "$tmp/out-new" > "$tmp/diff"; then
	n=$(find "$tmp/out-new" -type f | wc -l)
	echo "same-output: the working tree gives the same bytes as $rev ($n files)"
	exit 0
fi
cat "$tmp/diff"
echo "same-output: the working tree's output differs from $rev's"
exit 1
