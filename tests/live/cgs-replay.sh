#!/usr/bin/env bash
# cgs-replay.sh: replay a cgroupfs script (.cgs) against a real cgroup hierarchy and print the
# kernel's answers in the output format of `cgsim cgroupfs` (see docs/cgs-language.md), so the model
# can be compared line by line with a running kernel.
#
#   tests/live/cgs-replay.sh [--semantics v2|v1] [--mount DIR] FILE.cgs
#
# Developer tool: needs root, a C compiler and a mounted hierarchy; `make test` does not run it.
# See tests/live/README.md for the approach (paths are relative to the real root of the mount; the
# script refuses to run if any top-level cgroup name the .cgs file touches already exists) and for
# the clean-up guarantees (every process killed, every cgroup removed, root files restored).
set -u
set -f

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
semantics=v2
mount=
file=

# fd 3 is the real standard error: during the run, fd 2 goes to a log so that bash's job
# notices about the processes the kernel killed ("Killed ...") stay out of the output.
exec 3>&2
die() { echo "cgs-replay: $*" >&3; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--semantics) [ $# -ge 2 ] || die "--semantics needs a value"; semantics=$2; shift 2 ;;
	--semantics=*) semantics=${1#*=}; shift ;;
	--mount) [ $# -ge 2 ] || die "--mount needs a value"; mount=$2; shift 2 ;;
	--mount=*) mount=${1#*=}; shift ;;
	-h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) [ -z "$file" ] || die "only one script file"; file=$1; shift ;;
	esac
done
[ -n "$file" ] || die "usage: cgs-replay.sh [--semantics v2|v1] [--mount DIR] FILE.cgs"
case $semantics in
v2|v1) ;;
rfc2017) die "rfc2017 was never merged: no kernel implements it, nothing to replay against" ;;
*) die "unknown semantics '$semantics' (v2 or v1)" ;;
esac
[ -r "$file" ] || die "$file: cannot read"

# --- the hierarchy ---------------------------------------------------------------------------
if [ -z "$mount" ]; then
	if [ "$semantics" = v2 ]; then
		for m in /sys/fs/cgroup/unified /sys/fs/cgroup; do
			if [ "$(stat -f -c %T "$m" 2>/dev/null)" = cgroup2fs ]; then mount=$m; break; fi
		done
	else
		mount=/sys/fs/cgroup/cpu
	fi
fi
[ -n "$mount" ] && [ -d "$mount" ] || die "no hierarchy found; give --mount DIR"
mount=${mount%/}
fstype=$(stat -f -c %T "$mount")
if [ "$semantics" = v2 ]; then
	[ "$fstype" = cgroup2fs ] || die "$mount is not a cgroup2 mount ($fstype)"
else
	[ "$fstype" = cgroupfs ] || die "$mount is not a cgroup v1 mount ($fstype)"
	[ -e "$mount/cpu.shares" ] || die "$mount is not the v1 cpu hierarchy (no cpu.shares)"
fi
[ "$(id -u)" = 0 ] || die "must run as root"

# --- parse the script ------------------------------------------------------------------------
lines=()	# "LINENO<TAB>word word ..."
lineno=0
while IFS= read -r raw || [ -n "$raw" ]; do
	lineno=$((lineno + 1))
	text=${raw%%#*}
	read -ra w <<<"$text"
	[ ${#w[@]} -eq 0 ] && continue
	case ${w[0]} in
	root-controllers)
		[ ${#lines[@]} -eq 0 ] || die "$file:$lineno: root-controllers must be the first operation" ;;
	proc)
		[ ${#w[@]} -ge 2 ] && [ ${#w[@]} -le 3 ] || die "$file:$lineno: proc NAME [threads=N]"
		if [ ${#w[@]} -eq 3 ] && ! [[ ${w[2]} =~ ^threads=[1-9][0-9]*$ ]]; then
			die "$file:$lineno: proc NAME [threads=N]"
		fi ;;
	mkdir|rmdir|read)
		[ ${#w[@]} -eq 2 ] || die "$file:$lineno: ${w[0]} takes one path" ;;
	write)
		[ ${#w[@]} -ge 2 ] || die "$file:$lineno: write PATH/FILE VALUE..." ;;
	*) die "$file:$lineno: unknown operation '${w[0]}'" ;;
	esac
	lines+=("$lineno"$'\t'"${w[*]}")
done <"$file"

# Normalise a script path: drop "./" and repeated slashes; "." and "" are the root.
norm() {
	local p=$1 out= c
	local IFS=/
	for c in $p; do
		[ -z "$c" ] || [ "$c" = . ] && continue
		out=${out:+$out/}$c
	done
	printf '%s' "$out"
}

# Safety: every top-level name the script touches must not exist yet (so nothing but what the
# script creates is ever changed), and no path may climb out with "..".
declare -A tops=()
for l in "${lines[@]}"; do
	read -ra w <<<"${l#*$'\t'}"
	case ${w[0]} in
	mkdir|rmdir|write|read)
		p=$(norm "${w[1]}")
		[[ /$p/ == */../* ]] && die "script path '${w[1]}' contains '..'"
		case ${w[0]} in
		mkdir|rmdir) [ -n "$p" ] && tops[${p%%/*}]=1 ;;
		*) [[ $p == */* ]] && tops[${p%%/*}]=1 ;;
		esac ;;
	esac
done
for t in "${!tops[@]}"; do
	[ -e "$mount/$t" ] && die "$mount/$t already exists: refusing to run (the script would touch a cgroup it did not create)"
done

# --- helper ----------------------------------------------------------------------------------
tmp=$(mktemp -d /tmp/cgs-replay.XXXXXX) || die "mktemp failed"
helper=$tmp/cgs-helper
cc -O1 -pthread -o "$helper" "$here/cgs-helper.c" 2>"$tmp/cc.log" || { cat "$tmp/cc.log" >&2; rm -rf "$tmp"; die "cannot compile cgs-helper.c"; }

# --- state -----------------------------------------------------------------------------------
declare -A proc_pid=()	# process name -> pid
declare -A pid_proc=()	# pid -> process name
declare -A tid_thread=()	# tid -> "NAME.k"
declare -A thread_tid=()	# "NAME.k" -> tid
declare -A alive=()	# pid -> 1 while the replay owns a live process
tid_by_number=()	# model numbering: the n-th thread created by the script (1-based)
declare -A created=()	# normalised cgroup path -> 1 for cgroups the script created
declare -A root_saved=()	# root file -> content before the script first wrote it
root_files_written=()

cleanup() {
	local pid p f cur want c add rm_ i
	trap - EXIT INT TERM HUP
	for pid in "${!alive[@]}"; do kill -KILL "$pid" 2>/dev/null; done
	for pid in "${!alive[@]}"; do wait "$pid" 2>/dev/null; done
	# deepest first
	local dirs=()
	for p in "${!created[@]}"; do dirs+=("$(awk -F/ '{print NF}' <<<"$p") $p"); done
	if [ ${#dirs[@]} -gt 0 ]; then
		while read -r _ p; do
			for i in 1 2 3 4 5 6 7 8 9 10; do
				rmdir "$mount/$p" 2>/dev/null && break
				[ -d "$mount/$p" ] || break
				sleep 0.1
			done
			[ -d "$mount/$p" ] && echo "cgs-replay: could not remove $mount/$p" >&3
		done < <(printf '%s\n' "${dirs[@]}" | sort -rn)
	fi
	for f in "${root_files_written[@]}"; do
		cur=$(cat "$mount/$f" 2>/dev/null)
		want=${root_saved[$f]}
		[ "$cur" = "$want" ] && continue
		if [ "$f" = cgroup.subtree_control ]; then
			add=
			for c in $want; do [[ " $cur " == *" $c "* ]] || add+=" +$c"; done
			for c in $cur; do [[ " $want " == *" $c "* ]] || add+=" -$c"; done
			[ -n "$add" ] && echo "${add# }" >"$mount/$f"
		else
			echo "$want" >"$mount/$f"
		fi
		[ "$(cat "$mount/$f" 2>/dev/null)" = "$want" ] || echo "cgs-replay: could not restore $mount/$f ('$want')" >&3
	done
	if [ -s "$tmp/bash.err" ]; then
		grep -v -E '^.*(line [0-9]+: )?[0-9]+ Killed ' "$tmp/bash.err" >&3
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# A pid the kernel does not know (for "0" and numbers the script never created).
unused_pid() {
	local n
	n=$(($(cat /proc/sys/kernel/pid_max) - 1))
	while [ -e "/proc/$n" ]; do n=$((n - 1)); done
	printf '%s' "$n"
}

# Translate one word written to cgroup.procs / cgroup.threads / tasks.
translate() {
	local v=$1
	if [ -n "${proc_pid[$v]+x}" ]; then printf '%s' "${proc_pid[$v]}"
	elif [ -n "${thread_tid[$v]+x}" ]; then printf '%s' "${thread_tid[$v]}"
	elif [[ $v =~ ^[0-9]+$ ]]; then
		local n=$((10#$v))
		if [ "$n" -ge 1 ] && [ "$n" -le ${#tid_by_number[@]} ]; then
			printf '%s' "${tid_by_number[$((n - 1))]}"
		else
			unused_pid
		fi
	else printf '%s' "$v"
	fi
}

# Translate a pid/tid list to names, drop the machine's other tasks, sort by name then number.
names_of() {
	local kind=$1 id n
	while read -r id; do
		[ -z "$id" ] && continue
		if [ "$kind" = procs ]; then
			n=${pid_proc[$id]-}
			[ -n "$n" ] && printf '%s\t0\n' "$n"
		else
			n=${tid_thread[$id]-}
			[ -n "$n" ] && printf '%s\t%s\n' "${n%.*}" "${n##*.}"
		fi
	done | LC_ALL=C sort -u -t $'\t' -k1,1 -k2,2n | while IFS=$'\t' read -r n k; do
		if [ "$kind" = procs ]; then printf '%s\n' "$n"; else printf '%s.%s\n' "$n" "$k"; fi
	done
}

join_lines() {
	local out= first=1 l
	while IFS= read -r l || [ -n "$l" ]; do
		if [ $first = 1 ]; then out=$l; first=0; else out+="|$l"; fi
	done
	printf '%s' "$out"
}

# After a successful cgroup.kill: wait until the cgroup is unpopulated, then reap the victims.
reap_killed() {
	local dir=$1 i pid st
	for i in $(seq 50); do
		grep -q '^populated 0' "$dir/cgroup.events" 2>/dev/null && break
		sleep 0.1
	done
	for pid in "${!alive[@]}"; do
		st=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
		if [ -z "$st" ] || [ "$st" = Z ]; then
			wait "$pid" 2>/dev/null
			unset "alive[$pid]"
		fi
	done
}

root_controllers() {
	local have
	if [ "$semantics" = v2 ]; then
		have=$(cat "$mount/cgroup.controllers")
	else
		have=$(awk -v m="$mount" '$5 == m { n = split($NF, o, ","); for (i = 1; i <= n; i++) printf "%s ", o[i] }' /proc/self/mountinfo)
	fi
	local want=" $* " c ok=1
	for c in "$@"; do [[ " $have " == *" $c "* ]] || ok=0; done
	if [ "$semantics" = v2 ]; then
		for c in $have; do [[ $want == *" $c "* ]] || ok=0; done
	fi
	if [ $ok = 1 ]; then echo ok; else echo "MISMATCH (the kernel offers: $(echo $have))"; fi
}

# --- run -------------------------------------------------------------------------------------
exec 2>"$tmp/bash.err"
for l in "${lines[@]}"; do
	ln=${l%%$'\t'*}
	read -ra w <<<"${l#*$'\t'}"
	op=${w[0]}
	res=
	case $op in
	root-controllers)
		res=$(root_controllers "${w[@]:1}") ;;
	proc)
		name=${w[1]}
		n=1
		[ ${#w[@]} -eq 3 ] && n=${w[2]#threads=}
		[ -n "${proc_pid[$name]+x}" ] && die "$file:$ln: process $name already exists"
		mkfifo "$tmp/fifo"
		"$helper" spawn "$n" >"$tmp/fifo" &
		pid=$!
		alive[$pid]=1
		mapfile -t t <"$tmp/fifo"
		rm -f "$tmp/fifo"
		[ ${#t[@]} -eq "$n" ] || die "$file:$ln: could not start $name"
		proc_pid[$name]=$pid
		pid_proc[$pid]=$name
		for i in "${!t[@]}"; do
			tid_thread[${t[$i]}]=$name.$((i + 1))
			thread_tid[$name.$((i + 1))]=${t[$i]}
			tid_by_number+=("${t[$i]}")
		done
		res=$("$helper" write "$mount/cgroup.procs" "$pid")
		[ "$res" = ok ] || die "$file:$ln: cannot move $name into the root ($res)" ;;
	mkdir)
		p=$(norm "${w[1]}")
		res=$("$helper" mkdir "$mount/$p")
		[ "$res" = ok ] && created[$p]=1 ;;
	rmdir)
		p=$(norm "${w[1]}")
		res=$("$helper" rmdir "$mount/$p")
		[ "$res" = ok ] && unset "created[$p]" ;;
	write)
		p=$(norm "${w[1]}")
		f=${p##*/}
		vals=("${w[@]:2}")
		case $f in
		cgroup.procs|cgroup.threads|tasks)
			for i in "${!vals[@]}"; do vals[$i]=$(translate "${vals[$i]}"); done ;;
		esac
		if [[ $p != */* ]] && [ -z "${root_saved[$p]+x}" ] && [ -f "$mount/$p" ]; then
			case $p in
			cgroup.procs|cgroup.threads|tasks|cgroup.kill) ;;
			*) root_saved[$p]=$(cat "$mount/$p" 2>/dev/null); root_files_written+=("$p") ;;
			esac
		fi
		res=$("$helper" write "$mount/$p" "${vals[*]}")
		if [ "$f" = cgroup.kill ] && [ "$res" = ok ]; then
			d=${p%/*}; [ "$d" = "$p" ] && d=
			reap_killed "$mount/$d"
		fi ;;
	read)
		p=$(norm "${w[1]}")
		f=${p##*/}
		if "$helper" read "$mount/$p" >"$tmp/out"; then
			case $f in
			cgroup.procs) res=$(names_of procs <"$tmp/out" | join_lines) ;;
			cgroup.threads|tasks) res=$(names_of threads <"$tmp/out" | join_lines) ;;
			*) res=$(join_lines <"$tmp/out") ;;
			esac
		else
			res=$(cat "$tmp/out")
		fi ;;
	esac
	if [ -n "$res" ]; then
		echo "$ln: ${w[*]} -> $res"
	else
		echo "$ln: ${w[*]} ->"
	fi
done
exit 0
