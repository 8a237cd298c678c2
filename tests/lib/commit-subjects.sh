#!/bin/sh
# tests/lib/commit-subjects.sh [SINCE] - do the commit subjects after SINCE follow the project's
# rule (CONTRIBUTING.md, "Commits")? Each subject is `area: imperative summary`, within 72
# characters, the area one of the prefixes below (one per top-level room), the summary starting
# with a verb (refused where it plainly does not: an article, a question word, a name with
# punctuation or capitals such as a file or a command); git's own merge subjects pass. Prints "commits: N passed, N failed"
# (tests/lib/verdict.sh counts it) and each subject that fails with why; exit 1 on a failure.
# SINCE defaults to the commit where the rule began; a clone without it (a shallow one, a tarball)
# has nothing to check and passes with a line that says so.
set -u
since=${1:-63193c7}
prefixes="cgroup scheduler sim/util sim/engine sim/workload sim/scenario sim/trace sim/replay
sim/machine sim/run sim/live sim/vm sim/calibrate sim/report sim/study sim/cli scenarios plots
tests docs bench fuzz build"
if ! git rev-parse -q --verify "$since^{commit}" > /dev/null 2>&1; then
	echo "commits: $since is not in this clone, nothing to check"
	echo "commits: 0 passed, 0 failed"
	exit 0
fi
pass=0 fail=0
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
git log --format='%h %s' "$since..HEAD" > "$tmp"
while read -r hash subject; do
	why=""
	case $subject in
	"Merge branch "* | "Merge remote-tracking branch "* | "Merge tag "*)
		pass=$((pass + 1)); continue ;;
	esac
	[ ${#subject} -le 72 ] || why="over 72 characters (${#subject})"
	area=${subject%%: *}
	if [ "$area" = "$subject" ]; then
		why="no 'area: ' prefix"
	else
		known=0
		for p in $prefixes; do [ "$area" = "$p" ] && known=1; done
		[ $known -eq 1 ] || why="'$area' is not a room's prefix (CONTRIBUTING.md, \"Commits\")"
		verb=${subject#*: }
		verb=${verb%% *}
		case $verb in
		the | a | an | one | two | new | where | what | how | why | which | more | less)
			why="a noun phrase: the summary starts with '$verb', not a verb" ;;
		*[!a-z]*)
			why="a noun phrase: the summary starts with '$verb', not a verb" ;;
		esac
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $hash: $why: $subject"
	fi
done < "$tmp"
echo "commits: $pass passed, $fail failed"
[ $fail -eq 0 ]
