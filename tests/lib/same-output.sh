#!/bin/sh
# tests/lib/same-output.sh [REV] - does the working tree give every output byte that REV gives?
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
set -u
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

# outputs SIDE CGSIM: everything both sides are compared on, into $tmp/out-SIDE/o. Both run
# in a directory of their own where scenarios/ and tests/ are links to the working tree's, so
# that every path a message or report names is the same on both sides.
outputs() {
	mkdir -p "$tmp/run-$1" "$tmp/out-$1/o"
	ln -s "$root/scenarios" "$tmp/run-$1/scenarios"
	ln -s "$root/tests" "$tmp/run-$1/tests"
	ln -s "$tmp/out-$1/o" "$tmp/run-$1/o"
	out=o
	cgsim=$2
	cd "$tmp/run-$1" || exit 2
	for sc in scenarios/*.yaml; do
		name=$(basename "$sc" .yaml)
		progress "$1: $name"
		variants=$(sed -n '/^variants:/,/^[^ #]/s/^  \([A-Za-z0-9_.-]*\):.*/\1/p' "$sc")
		for v in base $variants; do
			"$cgsim" run "$sc" --variant "$v" --json > "$out/$name.$v.run.json" 2>&1
			echo "exit $?" >> "$out/$name.$v.run.json"
		done
		"$cgsim" shares "$sc" --json > "$out/$name.shares.json" 2>&1
		echo "exit $?" >> "$out/$name.shares.json"
		"$cgsim" check "$sc" > "$out/$name.check" 2>&1
		echo "exit $?" >> "$out/$name.check"
		"$cgsim" compare "$sc" -o "$out/$name.compare" > "$out/$name.compare.txt" 2>&1
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

outputs base "$tmp/tree/cgsim"
outputs new "$root/cgsim"
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
