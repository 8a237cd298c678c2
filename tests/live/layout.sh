# tests/live/layout.sh - what smp-shares.sh and latency.sh share: building a scenario's layout
# from its `# live:` lines on the running kernel (cgroup v1 cpu hierarchy) and tearing it down.
# Sourced by them, not run.
#
#   live_init NAME      checks for root and the hierarchy; sets CG, HERE, TOP, CGSIM, NCPU,
#                       TMP and P, the scratch cgroup CG/NAME-PID; builds $TMP/smp-load; removes
#                       everything on exit (a signal exits, and the EXIT trap cleans up once)
#   live_start FILE     builds FILE's layout and starts its processes: smp-load with the options
#                       in the array LIVE_LOAD_OPTS, then `--out $TMP/out.N` (N counting the
#                       processes started), then the thread specs. Moves every thread to its
#                       cgroup, names it THREAD.N (its comm, as in cgsim's traces) and
#                       appends "NAME CGROUP TID PID SPEC" to $TMP/threads (NAME is
#                       PROCESS/THREAD.N, numbered per thread name as cgsim numbers them) and
#                       each process's --out file to $TMP/outs
#   live_stop           kills the processes and removes the layout's cgroups
#
# The `# live:` lines:
#   # live: cg PATH [shares=N] [quota=QUOTA_US/PERIOD_US]
#   # live: proc NAME CGROUP [setsid] THREAD=SPEC...
# SPEC as tests/live/smp-load.c takes it. CGROUP `/` is the hierarchy's real root.

LIVE_LOAD_OPTS=()
live_helpers=()
live_nout=0

live_init() {
	[ "$(id -u)" = 0 ] || { echo "$0: needs root" >&2; exit 2; }
	CG=/sys/fs/cgroup/cpu
	[ -f $CG/cpu.shares ] || { echo "$0: no cgroup v1 cpu hierarchy at $CG" >&2; exit 2; }
	HERE=$(cd "$(dirname "$0")" && pwd)
	TOP=$(cd "$HERE/../.." && pwd)
	CGSIM=${CGSIM:-$TOP/cgsim}
	NCPU=$(nproc)
	P=$CG/$1-$$
	TMP=$(mktemp -d)
	trap live_cleanup EXIT
	trap 'exit 130' INT TERM HUP
	cc -O1 -pthread -o "$TMP/smp-load" "$HERE/smp-load.c"
}

live_cgdir() { if [ "$1" = / ]; then echo $CG; else echo "$P/$1"; fi; }

live_stop() {
	local p d
	for p in "${live_helpers[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	live_helpers=()
	for d in $(find "$P" -depth -type d 2>/dev/null); do rmdir "$d" 2>/dev/null || true; done
}

# LIVE_CLEANUP_HOOK: a function the script that sources this may name, run first at exit
LIVE_CLEANUP_HOOK=
live_cleanup() {
	[ -z "$LIVE_CLEANUP_HOOK" ] || "$LIVE_CLEANUP_HOOK"
	live_stop
	rm -rf "$TMP"
}

live_start() {
	local f=$1 line
	: > "$TMP/threads"
	: > "$TMP/outs"
	mkdir -p "$P"
	while IFS= read -r line; do
		set -- $line
		case $1 in
		cg)
			local d kv; d=$(live_cgdir "$2"); mkdir -p "$d"; shift 2
			for kv in "$@"; do
				case $kv in
				shares=*) echo "${kv#shares=}" > "$d/cpu.shares" ;;
				quota=*) local q=${kv#quota=}
					echo "${q#*/}" > "$d/cpu.cfs_period_us"; echo "${q%/*}" > "$d/cpu.cfs_quota_us" ;;
				*) echo "$f: bad live cg option '$kv'" >&2; exit 2 ;;
				esac
			done ;;
		proc)
			local pname=$2 pcg=$3 ss=; shift 3
			[ "${1:-}" = setsid ] && { ss=--setsid; shift; }
			local specs=() tnames=() t
			# each thread's comm is NAME.N as cgsim's traces name it, so that a kernel
			# trace of the layout reads like cgsim's
			local -A nth=()
			for t in "$@"; do
				tnames+=("${t%%=*}")
				nth[${t%%=*}]=$(( ${nth[${t%%=*}]:-0} + 1 ))
				specs+=("${t#*=},name:${t%%=*}.${nth[${t%%=*}]}")
			done
			live_nout=$((live_nout + 1))
			local tids=$TMP/tids.$live_nout out=$TMP/out.$live_nout
			"$TMP/smp-load" $ss "${LIVE_LOAD_OPTS[@]}" --out "$out" "${specs[@]}" > "$tids" &
			local hp=$!; live_helpers+=("$hp"); echo "$out" >> "$TMP/outs"
			until grep -qx ready "$tids" 2>/dev/null; do
				kill -0 "$hp" 2>/dev/null || { echo "$f: smp-load failed for '$line'" >&2; exit 2; }
				sleep 0.01
			done
			local -A count=()
			local i=0 tid tn
			while read -r tid; do
				[ "$tid" = ready ] && break
				tn=${tnames[$i]}
				count[$tn]=$(( ${count[$tn]:-0} + 1 ))
				echo "$tid" > "$(live_cgdir "$pcg")/tasks"
				echo "$pname/$tn.${count[$tn]} $pcg $tid $hp ${specs[$i]}" >> "$TMP/threads"
				i=$((i + 1))
			done < "$tids"
			;;
		*) echo "$f: bad live line '$line'" >&2; exit 2 ;;
		esac
	done < <(sed -n 's/^# live: //p' "$f")
}
