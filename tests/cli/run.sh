#!/bin/sh
# tests/cli/run.sh CGSIM - the command line's contract (cgsim --help): exit
# statuses, -o DIR's files and their agreement with --json, the same bytes from the same seed,
# cgsim check's exit status 1 on a failed expectation. Run from the repository root.
set -u
CGSIM=$1
SC=scenarios/zijlstra-root-vm.yaml
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgsim-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# run, and the files of -o DIR
"$CGSIM" run "$SC" --json > "$tmp/a.json"; [ $? -eq 0 ] && ok || bad "run --json exit status"
"$CGSIM" run "$SC" --json > "$tmp/b.json"
cmp -s "$tmp/a.json" "$tmp/b.json" && ok || bad "two runs of one scenario differ"
"$CGSIM" run "$SC" --json --seed 2 > "$tmp/c.json"
[ -s "$tmp/c.json" ] && ok || bad "--seed 2 printed nothing"
"$CGSIM" run "$SC" -o "$tmp/out" > "$tmp/text"; [ $? -eq 0 ] && ok || bad "run -o exit status"
for f in summary.json threads.csv groups.csv timeseries.csv; do
	[ -s "$tmp/out/$f" ] && ok || bad "-o DIR lacks $f"
done
cmp -s "$tmp/a.json" "$tmp/out/summary.json" && ok || bad "summary.json differs from --json"
[ "$(ls -A "$tmp/out" | wc -l)" -eq 7 ] && ok || bad "-o DIR holds other files: $(ls -A "$tmp/out")"
[ "$(head -n 1 "$tmp/out/threads.csv")" = "process,name,cgroup,cpu_ns,share,ideal,wait_ns,latency_p50_ns,latency_p99_ns,latency_max_ns,switches,migrations,wakeups,latency_p90_ns,latency_p999_ns,latency_min_ns,latency_mean_ns,latency_samples,delays,delay_total_ns,delay_max_ns,delay_max_start_ns,delay_max_end_ns,activations,missed_periods,slack_min_ns,slack_p50_ns,slack_mean_ns,ideal_bound" ] \
	&& ok || bad "threads.csv header"
[ "$(wc -l < "$tmp/out/threads.csv")" -eq 7 ] && ok || bad "threads.csv: 6 threads expected"
[ "$(wc -l < "$tmp/out/groups.csv")" -eq 3 ] && ok || bad "groups.csv: / and vm expected"
# 9 s measured at 100 ms: 90 intervals x (2 groups + 6 threads), plus the header
[ "$(wc -l < "$tmp/out/timeseries.csv")" -eq 721 ] && ok || bad "timeseries.csv rows"
grep -q '^"scenario": \|"groups": \[' "$tmp/a.json" && ok || bad "--json lacks groups"

# the latency figures of a thread alone whose every wakeup waits the timer's 25 us (the file
# says why): each is 25000 ns, 100 samples, in JSON, in threads.csv and in the text block
L=tests/cli/lat-alone.yaml
"$CGSIM" run "$L" --json -o "$tmp/la" > "$tmp/la.json"
grep -q '"latency_p50_ns": 25000, "latency_p90_ns": 25000, "latency_p99_ns": 25000, "latency_max_ns": 25000,' "$tmp/la.json" \
	&& grep -q '"latency_p999_ns": 25000, "latency_min_ns": 25000, "latency_mean_ns": 25000, "latency_samples": 100,' "$tmp/la.json" \
	&& ok || bad "lat-alone: JSON latency figures"
[ "$(sed -n 2p "$tmp/la/threads.csv" | cut -d, -f8-10,14-18)" = "25000,25000,25000,25000,25000,25000,25000,100" ] \
	&& ok || bad "lat-alone: threads.csv latency columns: $(sed -n 2p "$tmp/la/threads.csv")"
"$CGSIM" run "$L" > "$tmp/la.txt"
grep -qx 'p/t.1              0.025   0.025   0.025   0.025   0.025   0.025   0.025     100' "$tmp/la.txt" \
	&& ok || bad "lat-alone: the text's wakeup latency block"
"$CGSIM" check "$L" > "$tmp/la.check"; st=$?
[ $st -eq 1 ] && [ "$(grep -c '^PASS' "$tmp/la.check")" -eq 3 ] \
	&& grep -q '^FAIL .* process p latency_mean 0.025 ms (expected <= 0.024 ms)$' "$tmp/la.check" \
	&& ok || bad "lat-alone: check of latency_p999, _min, _mean: exit $st, $(cat "$tmp/la.check")"

# compare: the wakeup p99's change from base, derived in tests/cli/lat-variant.yaml
V=tests/cli/lat-variant.yaml
"$CGSIM" compare "$V" | grep -qx '    wakeup p99 ms: process p 0.040 (+0.015)' && ok || bad "compare text: p99 change"
"$CGSIM" compare "$V" --markdown | grep -qx '| process `p` | 0.025 | 0.040 (+0.015) |' && ok || bad "compare markdown: p99 change"
"$CGSIM" compare "$V" --json | grep -qx '    { "variant": "slow", "process": "p", "latency_p99_ns": 40000, "base_latency_p99_ns": 25000, "change_ns": 15000 }' \
	&& ok || bad "compare json: p99 change"

# rt-app's view of periodic threads, each figure derived in the scenario's comment
"$CGSIM" run tests/cli/periodic-alone.yaml -o "$tmp/pa" > "$tmp/pa.txt"
grep -qx 'p/t.1                 100        0        0       7.997    7.997    7.997' "$tmp/pa.txt" \
	&& ok || bad "periodic-alone: the text's periodic block"
[ "$(sed -n 2p "$tmp/pa/activations.csv")" = "p,t.1,1,10000000,10000000,10003000,12003000,2003000,10000000,7997000,3000,0,0" ] \
	&& [ "$(wc -l < "$tmp/pa/activations.csv")" -eq 101 ] && [ "$(cut -d, -f10 "$tmp/pa/activations.csv" | sort -u | head -n 1)" = 7997000 ] \
	&& ok || bad "periodic-alone: activations.csv"
"$CGSIM" run tests/cli/periodic-overrun.yaml --json -o "$tmp/po" > "$tmp/po.json"
grep -q '"overruns": 4, .*"activations": 4, "missed_periods": 6, "slack_min_ns": -60000000, "slack_p50_ns": -45000000, "slack_mean_ns": -37500000, "ideal_bound": false }' "$tmp/po.json" \
	&& ok || bad "periodic-overrun: JSON $(cat "$tmp/po.json")"
sed 1d "$tmp/po/activations.csv" > "$tmp/po.body"
printf '%s\n' "p,t.1,0,0,0,0,25000000,25000000,10000000,-15000000,0,1,1" \
	"p,t.1,1,10000000,25000000,25000000,50000000,25000000,10000000,-30000000,15000000,1,2" \
	"p,t.1,2,20000000,50000000,50000000,75000000,25000000,10000000,-45000000,30000000,1,1" \
	"p,t.1,3,30000000,75000000,75000000,100000000,25000000,10000000,-60000000,45000000,1,2" \
	| cmp -s - "$tmp/po.body" && ok || bad "periodic-overrun: activations.csv $(cat "$tmp/po.body")"

# schbench's block: 100 samples of 25 us, all counted on the p50 line
"$CGSIM" run "$L" --schbench > "$tmp/la.sch"
printf 'Wakeup Latencies percentiles (usec) runtime 1 (s) (100 total samples)\n\t  50.0th: 25         (100 samples)\n\t  90.0th: 25         (0 samples)\n\t* 99.0th: 25         (0 samples)\n\t  99.9th: 25         (0 samples)\n\t  min=25, max=25\n' \
	| cmp -s - "$tmp/la.sch" && ok || bad "run --schbench of lat-alone: $(cat "$tmp/la.sch")"

# perf sched latency's table: delays after preemption count (tests/cli/delay-pair.yaml derives
# every figure); equal rows in tid order; the b's first wait began before the window
"$CGSIM" run tests/cli/delay-pair.yaml --latency-table > "$tmp/dp.txt"
printf '%s\n' "  p/a.1:1001            |    500.000 ms |      125 | avg:   4.000 ms | max:   4.000 ms | max start:     0.004000 s | max end:     0.008000 s" \
	"  p/b.1:1002            |    500.000 ms |      125 | avg:   4.000 ms | max:   4.000 ms | max start:     0.000000 s | max end:     0.004000 s" \
	" -----------------------------------------------------------------------------------------------------------------" \
	"  TOTAL:                |   1000.000 ms |      250 |" > "$tmp/dp.want"
[ "$(sed -n 5,8p "$tmp/dp.txt")" = "$(cat "$tmp/dp.want")" ] && [ "$(sed -n 3p "$tmp/dp.txt")" = \
	"  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    | Max delay start           | Max delay end          |" ] \
	&& ok || bad "run --latency-table of delay-pair: $(cat "$tmp/dp.txt")"
"$CGSIM" run tests/cli/delay-pair.yaml --json | grep -c '"delays": 125, "delay_total_ns": 500000000, "delay_max_ns": 4000000,' \
	| grep -qx 2 && ok || bad "delay-pair: JSON delays"
"$CGSIM" run "$SC" --json --latency-table > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "run --json --latency-table"

# shares
"$CGSIM" shares "$SC" > "$tmp/shares"; [ $? -eq 0 ] && ok || bad "shares exit status"
grep -q '^vm  *0\.2000$' "$tmp/shares" && ok || bad "shares: vm 0.2000 expected"

# random streams keyed by the thread's name: a process and a thread entry declared ahead of a
# thread change nothing it draws; two names with the same hash still draw apart
"$CGSIM" run tests/cli/streams-a.yaml -o "$tmp/st-a" > /dev/null
"$CGSIM" run tests/cli/streams-b.yaml -o "$tmp/st-b" > /dev/null
wa=$(grep '^p,w\.1,' "$tmp/st-a/threads.csv"); wb=$(grep '^p,w\.1,' "$tmp/st-b/threads.csv")
[ -n "$wa" ] && [ "$wa" = "$wb" ] && ok || bad "streams: p/w.1 changed with threads ahead of it"
"$CGSIM" run tests/cli/streams-collide.yaml -o "$tmp/st-c" > /dev/null
[ "$(cut -d, -f4,11,13 "$tmp/st-c/threads.csv" | sed 1d | sort -u | wc -l)" -eq 2 ] \
	&& ok || bad "streams: two names with one hash draw the same numbers"

# check: 0 when all pass, 1 when one fails (with a FAIL line), 2 when a file cannot be loaded
"$CGSIM" check "$SC" > /dev/null; [ $? -eq 0 ] && ok || bad "check of a passing scenario"
"$CGSIM" check tests/cli/failing.yaml > "$tmp/check"; st=$?
[ $st -eq 1 ] && ok || bad "check of a failing scenario: exit $st, expected 1"
[ "$(grep -c '^PASS' "$tmp/check")" -eq 1 ] && [ "$(grep -c '^FAIL' "$tmp/check")" -eq 1 ] \
	&& ok || bad "check: one PASS and one FAIL line expected"
tail -n 1 "$tmp/check" | grep -qx '1 passed, 1 failed' && ok || bad "check: no closing line"
"$CGSIM" check tests/bad-scenarios/empty.yaml > /dev/null 2>&1; st=$?
[ $st -eq 2 ] && ok || bad "check of a malformed scenario: exit $st, expected 2"
# an entry that cannot be measured fails with the reason, never passes at 0
"$CGSIM" check tests/cli/unmeasured.yaml > "$tmp/um"; st=$?
[ $st -eq 1 ] && grep -q '^FAIL .* latency_p99 not measured: no wakeup in the measured window' \
	"$tmp/um" && ok || bad "check of a latency bound without wakeups: exit $st, $(cat "$tmp/um")"
# TAP for CI harnesses: a line a verdict, then the plan; JUnit XML beside it
"$CGSIM" check --tap tests/cli/failing.yaml --junit "$tmp/j.xml" > "$tmp/tap"; st=$?
[ $st -eq 1 ] && [ "$(sed -n 1p "$tmp/tap" | cut -c1-5)" = "ok 1 " ] && \
	[ "$(sed -n 2p "$tmp/tap" | cut -c1-9)" = "not ok 2 " ] && grep -qx '1\.\.2' "$tmp/tap" \
	&& ok || bad "check --tap: exit $st, $(cat "$tmp/tap")"
# (one busy thread alone: every ns of the CPU is charged to it, its ticks' too: 1.0000)
grep -q '<testsuites name="cgsim check" tests="2" failures="1" errors="0">' "$tmp/j.xml" && \
	grep -q '<testcase classname="tests/cli/failing.yaml" name="tests/cli/failing.yaml:9 \[base\] thread p/w.1 share"/>' "$tmp/j.xml" && \
	grep -q '<failure message="tests/cli/failing.yaml:10 \[base\] thread p/w.1 share 1.0000' "$tmp/j.xml" \
	&& ok || bad "check --junit: $(cat "$tmp/j.xml")"
"$CGSIM" check --junit "$tmp/j2.xml" tests/bad-scenarios/empty.yaml > /dev/null 2>&1; st=$?
[ $st -eq 2 ] && grep -q 'errors="1"' "$tmp/j2.xml" && grep -q '<error message=' "$tmp/j2.xml" \
	&& ok || bad "check --junit of a malformed scenario: exit $st"
# from a pipe: the file is read once, its variants (and sweep values) load from those bytes
"$CGSIM" check - < "$SC" > /dev/null 2>&1; st=$?
[ $st -eq 0 ] && ok || bad "check - from a pipe: exit $st, expected 0"
cat "$SC" | "$CGSIM" compare - > "$tmp/cmp-pipe" 2>&1; st=$?
"$CGSIM" compare "$SC" > "$tmp/cmp-file"
[ $st -eq 0 ] && [ "$(sed 1d "$tmp/cmp-pipe")" = "$(sed 1d "$tmp/cmp-file")" ] \
	&& ok || bad "compare - from a pipe: exit $st, or not the file's tables"
# compare -o without the gnuplot scripts: refused before any output (a copy of the program
# where no plots/ is near it; skipped where an installed copy of the scripts would be found)
if [ ! -e /usr/local/share/cgsim/plots ] && [ -z "${CGSIM_PLOTS:-}" ]; then
	mkdir -p "$tmp/noplots/bin" && cp "$CGSIM" "$tmp/noplots/bin/cgsim"
	(cd "$tmp/noplots" && bin/cgsim compare "$OLDPWD/$SC" -o out > stdout 2> /dev/null); st=$?
	[ $st -eq 2 ] && [ ! -s "$tmp/noplots/stdout" ] && [ ! -e "$tmp/noplots/out" ] \
		&& ok || bad "compare -o without plots/: exit $st, or output before the error"
fi
# closed-loop sleepers: their ideal is only a bound, marked, and left out of the fairness
"$CGSIM" run scenarios/bursty-mix.yaml --json > "$tmp/bm.json"
grep -q '"name": "b.1", .*"ideal_bound": true }' "$tmp/bm.json" && \
	grep -q '"name": "t.1", .*"ideal_bound": false }' "$tmp/bm.json" && \
	grep -q '"threads": 2, "bounded": 2 }' "$tmp/bm.json" \
	&& ok || bad "bursty-mix: ideal_bound and the fairness counts"
"$CGSIM" run scenarios/bursty-mix.yaml | grep -q '^bursty/b.1 .* 0.1000\* ' \
	&& ok || bad "bursty-mix: the text's * on a bounded ideal"
# getopt_long's conventions: --opt=VALUE, -- before operands that begin with '-', and a short
# usage with a pointer to --help on a bad option
"$CGSIM" run --seed=5 --set=machine.cpus=1 "$SC" --json | grep -q '"seed": 5,' && \
	"$CGSIM" run --seed=5 --set=machine.cpus=1 "$SC" --json | grep -q '"cpus": 1,' \
	&& ok || bad "--seed=5 and --set=KEY=VALUE"
cp "$SC" "$tmp/-dash.yaml"
abs=$(cd "$(dirname "$CGSIM")" && pwd)/$(basename "$CGSIM")
(cd "$tmp" && "$abs" run -- -dash.yaml > /dev/null 2>&1); st=$?
[ $st -eq 0 ] && ok || bad "run -- -dash.yaml: exit $st"
"$CGSIM" run --bogus 2> "$tmp/bogus.err"; st=$?
[ $st -eq 2 ] && [ "$(tail -n 1 "$tmp/bogus.err")" = "Try 'cgsim run --help' for more information." ] && \
	[ "$(wc -l < "$tmp/bogus.err")" -le 6 ] && ok || bad "a bad option's short usage: $(cat "$tmp/bogus.err")"
# one option table per command, one parser (sim/cli/cli.h): --opt=VALUE is --opt VALUE for every
# valued option of every command (merge has none but -o)
"$CGSIM" shares "$SC" --variant interposed --json > "$tmp/eq1"
"$CGSIM" shares --variant=interposed "$SC" --json > "$tmp/eq2"
[ -s "$tmp/eq1" ] && cmp -s "$tmp/eq1" "$tmp/eq2" && ok || bad "shares --variant=NAME"
"$CGSIM" run "$V" --variant slow --max-events 0 --json > "$tmp/eq1"
"$CGSIM" run "$V" --variant=slow --max-events=0 --json > "$tmp/eq2"
[ -s "$tmp/eq1" ] && cmp -s "$tmp/eq1" "$tmp/eq2" && ok || bad "run --variant=NAME --max-events=N"
"$CGSIM" compare "$V" --set seed=3 --json > "$tmp/eq1"
"$CGSIM" compare "$V" --set=seed=3 --jobs=1 --json > "$tmp/eq2"
[ -s "$tmp/eq1" ] && cmp -s "$tmp/eq1" "$tmp/eq2" && ok || bad "compare --set=KEY=VALUE --jobs=N"
"$CGSIM" check --junit="$tmp/eq.xml" tests/cli/failing.yaml > /dev/null; st=$?
[ $st -eq 1 ] && grep -q '<testsuites name="cgsim check"' "$tmp/eq.xml" && ok || bad "check --junit=FILE: exit $st"
C=tests/cgroupfs/v2/cpuset-effective.cgs
"$CGSIM" cgroupfs --semantics v1 "$C" > "$tmp/eq1" 2>&1
"$CGSIM" cgroupfs --semantics=v1 "$C" > "$tmp/eq2" 2>&1
[ -s "$tmp/eq1" ] && cmp -s "$tmp/eq1" "$tmp/eq2" && ok || bad "cgroupfs --semantics=v1"
# validate and calibrate need root and a kernel to run: past the parsing, to the value's check
"$CGSIM" validate "$SC" --live --reps=0 2>&1 | head -n 1 |
	grep -qx "cgsim: --reps needs a number from 1 to 100, not '0'" && ok || bad "validate --reps=0"
"$CGSIM" validate "$SC" --live --tolerance=-1 2>&1 | head -n 1 |
	grep -qx "cgsim: --tolerance needs points of capacity from 0 to 100, not '-1'" \
	&& ok || bad "validate --tolerance=-1"
"$CGSIM" calibrate --live --round-trips=999 2>&1 | head -n 1 |
	grep -qx "cgsim: --round-trips needs a number from 1000 to 100000000, not '999'" \
	&& ok || bad "calibrate --round-trips=999"
"$CGSIM" calibrate --live --profile="$tmp/nodir/p" > /dev/null 2> "$tmp/eq.err"; st=$?
[ $st -eq 2 ] && grep -q "cannot write $tmp/nodir/p" "$tmp/eq.err" && ! grep -q unknown "$tmp/eq.err" \
	&& ok || bad "calibrate --profile=FILE: exit $st, $(cat "$tmp/eq.err")"
"$CGSIM" calibrate --live -o "$tmp/p2" --profile="$tmp/p2" 2>&1 | head -n 1 |
	grep -qx "cgsim: -o and --profile name the same file '$tmp/p2'" && ok || bad "calibrate --profile=FILE -o FILE"
# after --, an operand may begin with '-'
(cd "$tmp" && "$abs" shares --json -- -dash.yaml > /dev/null 2>&1); st=$?
[ $st -eq 0 ] && ok || bad "shares -- -dash.yaml: exit $st"
# the same refusals everywhere: exit 2, nothing on stdout, the message, the command's usage
# (within 80 columns) and where its help is
usage_error() {	# WHAT MESSAGE CMD ARGS...
	what=$1 msg=$2 cmd=$3; shift 2
	"$CGSIM" "$@" > "$tmp/ue.out" 2> "$tmp/ue.err"; st=$?
	[ $st -eq 2 ] && [ ! -s "$tmp/ue.out" ] && [ "$(head -n 1 "$tmp/ue.err")" = "cgsim: $msg" ] &&
		[ "$(sed -n 2p "$tmp/ue.err")" = "$("$CGSIM" "$cmd" --help | head -n 1)" ] &&
		[ "$(tail -n 1 "$tmp/ue.err")" = "Try 'cgsim $cmd --help' for more information." ] &&
		awk 'length($0) > 80 { exit 1 }' "$tmp/ue.err" \
		&& ok || bad "$what: exit $st, $(cat "$tmp/ue.out" "$tmp/ue.err")"
}
for c in run shares compare merge check cgroupfs validate calibrate; do
	usage_error "$c --foo" "unknown option '--foo'" $c --foo
	usage_error "$c --foo=1" "unknown option '--foo'" $c --foo=1
	usage_error "$c -x" "unknown option '-x'" $c -x
	usage_error "$c --=1" "unknown option '--=1'" $c --=1
	usage_error "$c --help=1" "--help takes no value" $c --help=1
	"$CGSIM" $c --help > "$tmp/help"; st=$?
	# the usage lines (up to the first blank line) within 80 columns
	[ $st -eq 0 ] && sed '/^$/q' "$tmp/help" | awk 'length($0) > 80 { exit 1 }' \
		&& ok || bad "$c --help: exit $st or a usage line over 80 columns"
	# every option of the command's table in its --help, at the start of an entry
	opts=$("$CGSIM" --bash-completion | awk -v c="$c" '$1 == c ")" { f = 1 }
		f && /opts=/ { sub(/.*opts=./, ""); sub(/.$/, ""); print; exit }')
	[ -n "$opts" ] && ok || bad "completion: no options for $c"
	for o in $opts; do
		[ "$o" = --help ] || grep -q -- "^  $o\\( \\|\$\\)" "$tmp/help" && ok || bad "$c --help lacks $o"
	done
done
# abbreviations are refused (a prefix unique today would be ambiguous once an option is added)
usage_error "run --se 5" "unknown option '--se'" run "$SC" --se 5
usage_error "run --var=interposed" "unknown option '--var'" run "$SC" --var=interposed
usage_error "compare --mark" "unknown option '--mark'" compare "$SC" --mark
usage_error "calibrate --prof" "unknown option '--prof'" calibrate --live --prof "$tmp/p"
usage_error "check --ta" "unknown option '--ta'" check --ta "$SC"
usage_error "run --json=x" "--json takes no value" run "$SC" --json=x
usage_error "validate --live=yes" "--live takes no value" validate "$SC" --live=yes
usage_error "run --seed" "--seed needs a value" run "$SC" --seed
usage_error "merge -o" "-o needs a value" merge -o
usage_error "cgroupfs --semantics=v3" "unknown semantics 'v3' (expected v2, rfc2017 or v1)" \
	cgroupfs --semantics=v3 "$C"
usage_error "run two scenarios" "more than one scenario given ('$SC')" run "$SC" --json "$SC"
# run --domains: the domains a 6.12 guest of that machine built (tests/kernel/domains-6.12.txt)
"$CGSIM" run tests/vm/smt-two-groups.yaml --domains 2> /dev/null > "$tmp/dom"
grep '^8 ' tests/kernel/domains-6.12.txt |
	awk '{ printf "cpu%s/domain%s", $2, $3; for (i = 4; i <= NF; i++) printf " %s", $i; print "" }' |
	cmp -s - "$tmp/dom" && ok || bad "run --domains: not the domains Linux 6.12 built"
usage_error "run --domains --json" "--domains prints only the domains, not --json" \
	run "$SC" --domains --json
# --vm's options (docs/vm.md): refused before any guest boots
usage_error "validate --live --vm" "--live and --vm: one kernel at a time" validate "$SC" --live --vm
usage_error "validate --kernel without --vm" "--kernel, --kernel-version and --log go with --vm" \
	validate "$SC" --live --kernel /dev/null
usage_error "cgroupfs --log without --vm" "--kernel, --kernel-version and --log go with --vm" \
	cgroupfs --log "$tmp/l" "$C"
for v in x 7 7.3.4.1 07.3 7.3-rc7 7.3. 1234.1; do
	usage_error "validate --fetch-kernel --kernel-version $v" \
		"--kernel-version needs a series or release (7.3, 7.3.4), not '$v'" \
		validate --fetch-kernel --kernel-version "$v"
done
# a kernel version without --vm, and a release where a series goes: refused alike
usage_error "validate --kernel-version 7.3.4 without --vm" \
	"--kernel, --kernel-version and --log go with --vm" validate "$SC" --live --kernel-version 7.3.4
usage_error "validate --fetch-kernel --vm" "--fetch-kernel takes only --kernel-version" \
	validate --fetch-kernel --vm
usage_error "validate two kernels" "--kernel and --kernel-version: one kernel at a time" \
	validate "$SC" --vm --kernel /dev/null --kernel-version 6.1
usage_error "cgroupfs --vm -" \
	"--vm replays a script file, not stdin" \
	cgroupfs --vm -
usage_error "validate without a kernel" \
	"--live (this kernel) or --vm (one under QEMU) is required" \
	validate "$SC"
# the bash completion, made by the program from the same tables
if command -v bash > /dev/null; then
	"$CGSIM" --bash-completion > "$tmp/compl.bash"
	complete_words() {	# WORDS...: what completing the last word offers
		bash -c 'shopt -s extglob; . "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
			_cgsim; echo "${COMPREPLY[*]}"' sh "$tmp/compl.bash" "$@"
	}
	[ "$(complete_words cgsim calibrate --pro)" = --profile ] && ok || bad "completion of calibrate --pro"
	[ "$(complete_words cgsim cgroupfs --semantics '')" = "v2 rfc2017 v1" ] \
		&& ok || bad "completion of cgroupfs --semantics: $(complete_words cgsim cgroupfs --semantics '')"
	[ "$(complete_words cgsim che)" = check ] && ok || bad "completion of a command"
	[ "$(complete_words cgsim run --var)" = --variant ] && ok || bad "completion of run --var"
else
	echo "cli: bash not installed, the completion not checked"
fi
# markdown: the header line, the change from base as a table of its own, the sweep too
"$CGSIM" compare scenarios/zijlstra-root-vm.yaml --markdown > "$tmp/zr.md"
[ "$(sed -n 1p "$tmp/zr.md")" = '**zijlstra-root-vm**: 2 CPUs, kernel 6.18 (eevdf, cgroup_mode smp), seed 1, 9.0 s measured' ] && \
	grep -qx '| process `qemu` | +30.0 | +30.0 |' "$tmp/zr.md" && \
	grep -qx '| `4` | 0.200/0.200 | 0.500/0.500 | 0.500/0.500 |' "$tmp/zr.md" \
	&& ok || bad "compare --markdown: header, changes or sweep: $(cat "$tmp/zr.md")"
# long paths: cut from the left when the cut is unique, else whole on a line of their own
"$CGSIM" compare tests/cli/long-twins.yaml > "$tmp/tw.txt"
[ "$(grep -c '^  group [a-z.]*/machine-qemu\\x2d1\\x2dvm.scope$' "$tmp/tw.txt")" -eq 2 ] && \
	[ "$(sed -n '/^share/,/^Jain/p' "$tmp/tw.txt" | cut -c1-25 | grep -v '^ *$' | sort | uniq -d)" = "" ] \
	&& ok || bad "compare: two long paths with one leaf: $(cat "$tmp/tw.txt")"
# run's text: within 80 columns, a label too wide for its column whole on a line of its own
for s in tests/cli/long-twins.yaml scenarios/bursty-mix.yaml scenarios/v1-zijlstra.yaml; do
	"$CGSIM" run "$s" > "$tmp/w.txt"
	awk 'length($0) > 80 { exit 1 }' "$tmp/w.txt" && ok || bad "run $s: lines over 80 columns"
done
"$CGSIM" run tests/cli/long-twins.yaml | grep -qx 'a/w.1  machine.slice/machine-qemu\\x2d1\\x2dvm.scope' \
	&& ok || bad "run: a long cgroup is not whole on the thread's own line"
# the processes' roll-up: v1 puts app's four threads in / beside vm (weight 1024 against four
# threads of 1024 on 2 CPUs): each thread 0.2 of the machine, so app 0.8 and qemu 0.2; the
# share is the sum of the threads' shares (four roundings of 0.00005 apart at most)
"$CGSIM" run scenarios/v1-zijlstra.yaml > "$tmp/roll.txt"
grep -qE '^app +4 +0\.[0-9]{4} +0\.8000$' "$tmp/roll.txt" && \
	grep -qE '^qemu +2 +0\.[0-9]{4} +0\.2000$' "$tmp/roll.txt" && \
	awk '$1 ~ /^app\// { sum += $3 } $1 == "app" && NF == 4 { row = $3 }
	     END { d = sum - row; exit !(d < 0.0003 && d > -0.0003) }' "$tmp/roll.txt" \
	&& ok || bad "run: process roll-up: $(cat "$tmp/roll.txt")"
"$CGSIM" run tests/cli/long-twins.yaml | grep -q "^process " && bad "roll-up of one-thread processes only" || ok
# --seeds N: the summary of seeds S..S+N-1 against the same runs made one by one, summed up
# here (mean, least, greatest; the 95 % half-width with t(0.975, 2) = 4.3027 from a table)
for k in 7 8 9; do
	"$CGSIM" run scenarios/smp-duty-mix.yaml --seed $k --json | grep '"name": "t.1"' | \
		sed 's/.*"share": \([0-9.]*\),.*/\1/'
done > "$tmp/one-by-one"
"$CGSIM" run scenarios/smp-duty-mix.yaml --seeds 3 --seed 7 --json > "$tmp/seeds.json"; st=$?
grep -A1 '"name": "t.1"' "$tmp/seeds.json" | tail -n 1 | \
	sed 's/.*"share": \([0-9.]*\), "share_min": \([0-9.]*\), "share_max": \([0-9.]*\), "share_ci": \([0-9.]*\),.*/\1 \2 \3 \4/' \
	> "$tmp/summed"
[ $st -eq 0 ] && awk 'NR == FNR { v[NR] = $1; n = NR; next }
	{ m = (v[1] + v[2] + v[3]) / 3; lo = v[1]; hi = v[1]
	  for (i = 2; i <= 3; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
	  ss = 0; for (i = 1; i <= 3; i++) ss += (v[i] - m) ^ 2
	  ci = 4.3027 * sqrt(ss / 2) / sqrt(3)
	  d = $1 - m; e = $4 - ci
	  exit !(n == 3 && d < 2e-6 && d > -2e-6 && $2 == lo && $3 == hi && e < 5e-5 && e > -5e-5) }' \
	"$tmp/one-by-one" "$tmp/summed" && grep -q '"seed": 7, "seeds": 3,' "$tmp/seeds.json" \
	&& ok || bad "run --seeds 3: $(cat "$tmp/summed") from $(tr '\n' ' ' < "$tmp/one-by-one")"
"$CGSIM" run scenarios/smp-duty-mix.yaml --seeds 3 | awk 'length($0) > 80 { exit 1 }
	/^p\/t\.1 / { found = 1 } END { exit !found }' && ok || bad "run --seeds text: width or rows"
for a in "-o $tmp/sd" "--trace $tmp/sd.trace" --schbench "--seeds 0" "--seeds 1001"; do
	# shellcheck disable=SC2086
	"$CGSIM" run scenarios/smp-duty-mix.yaml --seeds 2 $a > "$tmp/sd.out" 2>&1; st=$?
	[ $st -eq 2 ] && [ ! -e "$tmp/sd" ] && [ ! -e "$tmp/sd.trace" ] && ok || bad "run --seeds 2 $a: exit $st"
done
# compare --seeds 3: process busy's mean, spread and the ? of the change, against the same
# runs made one by one (a process's share: its threads' summed; t(0.975, 2) = 4.3027)
for var in base cfs; do
	for k in 1 2 3; do
		"$CGSIM" run scenarios/bursty-mix.yaml --variant $var --seed $k --json | \
			grep '"process": "busy"' | sed 's/.*"share": \([0-9.]*\),.*/\1/' | \
			awk -v v=$var '{ s += $1 } END { print v, s }'
	done
done > "$tmp/busy-runs"
"$CGSIM" compare scenarios/bursty-mix.yaml --seeds 3 > "$tmp/cmp-seeds"; st=$?
awk 'NR == FNR { n[$1]++; x[$1, n[$1]] = $2; next }
     /^  process busy / && !shown { m0 = $3; m1 = $4; shown = 1 }
     /^  process busy / && shown && /-/ && !rng { rng = 1; getline; c0 = $1; c1 = $2 }
     /^  cfs:/ { flagged = index($0, "process busy -0.1?") || index($0, "process busy +0.1?") ||
		 index($0, "process busy +0.0?") || index($0, "process busy -0.0?") }
     END {
	for (j = 0; j < 2; j++) {
		v = j ? "cfs" : "base"; m = (x[v, 1] + x[v, 2] + x[v, 3]) / 3; ss = 0
		for (i = 1; i <= 3; i++) ss += (x[v, i] - m) ^ 2
		mean[j] = m; ci[j] = 4.3027 * sqrt(ss / 2) / sqrt(3)
	}
	split(m0, a, "/"); split(m1, b, "/"); sub(/^\+-/, "", c0); sub(/^\+-/, "", c1)
	ok = (a[1] - mean[0]) ^ 2 < 1e-6 && (b[1] - mean[1]) ^ 2 < 1e-6 &&
	     (c0 - ci[0]) ^ 2 < 1e-8 && (c1 - ci[1]) ^ 2 < 1e-8
	small = (mean[1] - mean[0]) ^ 2 < (ci[0] + ci[1]) ^ 2
	exit !(ok && (small ? flagged : !flagged))
     }' "$tmp/busy-runs" "$tmp/cmp-seeds" && [ $st -eq 0 ] && \
	grep -q '^bursty-mix: 1 CPUs, seeds 1 to 3 (means)' "$tmp/cmp-seeds" \
	&& grep -qx 'variant cfs: kernel 6.18 (cfs, cgroup_mode smp), overridden: policy' "$tmp/cmp-seeds" \
	&& ok || bad "compare --seeds 3: $(cat "$tmp/busy-runs" "$tmp/cmp-seeds")"
awk 'length($0) > 80 { exit 1 }' "$tmp/cmp-seeds" && ok || bad "compare --seeds: over 80 columns"
# compare --seeds --json: each variant's object is the one run --seeds --json prints for it,
# and every share change says whether it is within the spread, as the text marks it with ?
"$CGSIM" compare scenarios/bursty-mix.yaml --seeds 3 --json > "$tmp/cmp-seeds.json"; st=$?
for var in base cfs normal; do
	"$CGSIM" run scenarios/bursty-mix.yaml --variant $var --seeds 3 --json > "$tmp/run-$var.json"
	awk 'NR == FNR { want[++n] = $0; next }
	     $0 == want[k + 1] { k++; if (k == n) found = 1; next } { k = ($0 == want[1]) }
	     END { exit !found }' "$tmp/run-$var.json" "$tmp/cmp-seeds.json" 		&& ok || bad "compare --seeds 3 --json: variant $var is not run --seeds 3 --json's"
done
small=$(grep -c '"process": "busy", "change_points": [-0-9.]*, "within_spread": true' "$tmp/cmp-seeds.json")
marked=$(grep -Ec '^  (cfs|normal):.*process busy [-+][0-9.]+\?' "$tmp/cmp-seeds")
[ $st -eq 0 ] && grep -q '"scenario": "bursty-mix", "seed": 1, "seeds": 3,' "$tmp/cmp-seeds.json" \
	&& [ "$small" = "$marked" ] && ok || bad "compare --seeds --json: exit $st, $small within vs $marked ?"
# --markdown: the means, the spread table and the same ? marks
"$CGSIM" compare scenarios/bursty-mix.yaml --seeds 3 --markdown > "$tmp/cmp-seeds.md"; st=$?
[ $st -eq 0 ] && grep -q '^\*\*bursty-mix\*\*: 1 CPUs, kernel by variant, seeds 1 to 3 (means)' "$tmp/cmp-seeds.md" \
	&& grep -qx -- '- variants base, normal: kernel 6.18 (eevdf, cgroup_mode smp)' "$tmp/cmp-seeds.md" \
	&& grep -q '^| least-greatest, +- 95 % interval of the mean | base | cfs | normal |$' "$tmp/cmp-seeds.md" \
	&& [ "$(grep -Ec '^\| process `busy` \|.*\?' "$tmp/cmp-seeds.md")" = "$(grep -c '^  cfs:.*busy [-+][0-9.]*?\|^  normal:.*busy [-+][0-9.]*?' "$tmp/cmp-seeds")" ] \
	&& ok || bad "compare --seeds --markdown: exit $st"
# -o DIR: seed S's run files, each variant's seeds.json (run --seeds --json's) and the bar
# chart's means with their least and greatest
"$CGSIM" compare scenarios/zijlstra-root-vm.yaml --seeds 2 -o "$tmp/cs" > /dev/null; st=$?
"$CGSIM" run scenarios/zijlstra-root-vm.yaml --variant interposed --seeds 2 --json > "$tmp/zi.json"
"$CGSIM" run scenarios/zijlstra-root-vm.yaml --variant interposed --json > "$tmp/zi1.json"
[ $st -eq 0 ] && cmp -s "$tmp/cs/interposed/seeds.json" "$tmp/zi.json" \
	&& cmp -s "$tmp/cs/interposed/summary.json" "$tmp/zi1.json" \
	&& head -n 1 "$tmp/cs/interposed/bars.csv" | grep -qx 'share,share_min,share_max,ideal,name' \
	&& grep -q "bars.csv'; variant='interposed'; seeds=2; seed=1;" "$tmp/cs/render.sh" \
	&& ok || bad "compare --seeds 2 -o DIR: exit $st"
# the sweep over seeds too: its header says so, its CSV has the spread
"$CGSIM" compare scenarios/zijlstra-root-vm.yaml --seeds 2 | \
	grep -q '^sweep of processes.app.threads.worker.count: share/ideal of group vm (means over 2 seeds)$' \
	&& head -n 1 "$tmp/cs/sweep.csv" | grep -qx 'value,variant,kind,name,share,ideal,share_min,share_max,share_ci' \
	&& ok || bad "compare --seeds 2: the sweep's table or CSV"
"$CGSIM" compare scenarios/bursty-mix.yaml --seeds 2 -o "$tmp/cst" --trace > /dev/null 2>&1; st=$?
[ $st -eq 2 ] && [ ! -e "$tmp/cst" ] && ok || bad "compare --seeds 2 --trace: exit $st"
printf 'sweep: { key: seed, values: [1, 2] }\n' | cat tests/cli/long-twins.yaml - > "$tmp/sweep-seed.yaml"
"$CGSIM" compare "$tmp/sweep-seed.yaml" --seeds 2 > /dev/null 2> "$tmp/sweep-seed.err"; st=$?
[ $st -eq 2 ] && grep -q 'the sweep sets seed' "$tmp/sweep-seed.err" && ok \
	|| bad "compare --seeds with a sweep of seed: exit $st: $(cat "$tmp/sweep-seed.err")"
# --seeds reads a scenario from stdin once; a seed range past 2^64 - 1 is refused, no output
"$CGSIM" run - --seeds 2 < tests/cli/long-twins.yaml > "$tmp/sd-stdin"; st=$?
"$CGSIM" run tests/cli/long-twins.yaml --seeds 2 > "$tmp/sd-file"
[ $st -eq 0 ] && cmp -s "$tmp/sd-stdin" "$tmp/sd-file" && ok || bad "run - --seeds 2: exit $st or other output"
"$CGSIM" run tests/cli/long-twins.yaml --seed 18446744073709551615 --seeds 2 > "$tmp/sd-max" 2>&1; st=$?
[ $st -eq 2 ] && grep -q "pass 2^64 - 1" "$tmp/sd-max" && [ "$(grep -c '^twins' "$tmp/sd-max")" -eq 0 ] \
	&& ok || bad "--seeds past 2^64 - 1: exit $st: $(cat "$tmp/sd-max")"
# check --seeds 3: an entry judged on the mean of the three runs made one by one, least and
# greatest beside it
for k in 1 2 3; do
	"$CGSIM" run scenarios/bursty-mix.yaml --seed $k --json | grep '"process": "bursty", "name": "b.1"' | \
		sed 's/.*"share": \([0-9.]*\),.*/\1/'
done > "$tmp/b1-runs"
"$CGSIM" check scenarios/bursty-mix.yaml --seeds=3 > "$tmp/check-seeds"; st=$?
line=$(grep 'bursty-mix.yaml:37 \[base\] thread bursty/b.1 share' "$tmp/check-seeds")
echo "$line" | sed 's/.* share \([0-9.]*\) (mean of 3 seeds, \([0-9.]*\) to \([0-9.]*\)).*/\1 \2 \3/' > "$tmp/b1-said"
[ $st -eq 0 ] && awk 'NR == FNR { v[NR] = $1; next }
	{ m = (v[1] + v[2] + v[3]) / 3; lo = v[1]; hi = v[1]
	  for (i = 2; i <= 3; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
	  exit !(($1 - m) ^ 2 < 2.5e-9 && ($2 - lo) ^ 2 < 2.5e-9 && ($3 - hi) ^ 2 < 2.5e-9) }' \
	"$tmp/b1-runs" "$tmp/b1-said" && ok || bad "check --seeds 3: '$line' from $(cat "$tmp/b1-runs")"
"$CGSIM" check scenarios/bursty-mix.yaml --seeds 0 > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "check --seeds 0"
# every JSON object says its schema and the build that wrote it, first
"$CGSIM" run "$SC" --json | sed -n 2p | grep -qE '^  "schema_version": 1, "cgsim_version": "[^"]+",$' \
	&& "$CGSIM" compare "$SC" --json | sed -n 2p | grep -q '"schema_version": 1' \
	&& ok || bad "JSON without schema_version and cgsim_version"
# timeline operations the model refuses: on stderr with line and time; --strict exits 1
T=tests/cli/timeline-refused.yaml
"$CGSIM" run "$T" > /dev/null 2> "$tmp/tl.err"; st=$?
[ $st -eq 0 ] && [ "$(cat "$tmp/tl.err")" = "$T:13: at 0.500 s: write nowhere/cpu.weight 100 -> ENOENT
$T:16: at 0.900 s: write g/h/cgroup.threads p/w.1 -> EOPNOTSUPP" ] \
	&& ok || bad "timeline refusals on stderr: exit $st, $(cat "$tmp/tl.err")"
"$CGSIM" run "$T" --strict > /dev/null 2>&1; st=$?
[ $st -eq 1 ] && ok || bad "run --strict with a refused timeline operation: exit $st, expected 1"
"$CGSIM" compare "$T" --strict > /dev/null 2>&1; st=$?
[ $st -eq 1 ] && ok || bad "compare --strict with a refused timeline operation: exit $st"
# an installed tree moved elsewhere: the scripts are found in <exe>/../share/cgsim, from any
# working directory
mkdir -p "$tmp/moved/bin" "$tmp/moved/share/cgsim" "$tmp/elsewhere"
cp "$CGSIM" "$tmp/moved/bin/cgsim" && cp -r plots "$tmp/moved/share/cgsim/plots"
(cd "$tmp/elsewhere" && "$tmp/moved/bin/cgsim" compare "$OLDPWD/$SC" -o out > /dev/null 2>&1); st=$?
[ $st -eq 0 ] && ls "$tmp/elsewhere/out/figures/"*.png > /dev/null 2>&1 \
	&& ok || bad "compare -o from a moved install: exit $st, or no figures"
# help and version to a full device: the write fails, so the exit status says so
for c in --help --version "run --help" "compare --help" "check --help" "cgroupfs --help" \
	"merge --help" "calibrate --help"; do
	# shellcheck disable=SC2086
	"$CGSIM" $c > /dev/full 2> /dev/null; st=$?
	[ $st -eq 2 ] && ok || bad "cgsim $c > /dev/full: exit $st, expected 2"
done
# a seed with a blank and a sign would wrap to 2^64 - 5
"$CGSIM" run "$SC" --seed " -5" > "$tmp/out-seed" 2>/dev/null; st=$?
[ $st -eq 2 ] && [ ! -s "$tmp/out-seed" ] && ok || bad "--seed ' -5': exit $st, expected 2"
# a thread that never runs next to one that wakes (a NULL sample array; UBSan runs this too)
"$CGSIM" check tests/cli/never-runs.yaml > "$tmp/check" 2>&1; st=$?
[ $st -eq 0 ] && ok || bad "check of a scenario with a thread that never runs: exit $st"
# the documented limits can be reached: 100,000 timeline entries load and run (within 4 MiB
# and 1,000,000 YAML nodes), and one node more than 1,000,000 is refused, naming the place
awk 'BEGIN { print "name: t\nduration: 11s\ncgroups:\n  a:\nprocesses:";
	print "  x: { cgroup: a, threads: { t: { behavior: busy } } }\ntimeline:";
	for (i = 0; i < 100000; i++) printf "- {at: %dus, do: \"rmdir a\"}\n", i * 100 }' \
	> "$tmp/timeline-max.yaml"
"$CGSIM" run "$tmp/timeline-max.yaml" --json > "$tmp/timeline-max.json" 2>&1; st=$?
[ $st -eq 0 ] && ok || bad "100,000 timeline entries: exit $st, expected 0"
awk 'BEGIN { printf "x: [0"; for (i = 1; i < 1000000; i++) printf ",0"; print "]" }' \
	> "$tmp/nodes.yaml"
"$CGSIM" run "$tmp/nodes.yaml" > /dev/null 2> "$tmp/nodes.err"; st=$?
[ $st -eq 2 ] && [ "$(cat "$tmp/nodes.err")" = \
	"$tmp/nodes.yaml:1:1999999: error: the document has more than 1000000 nodes" ] \
	&& ok || bad "1,000,001 YAML nodes: exit $st, $(cat "$tmp/nodes.err")"

# the work limit: a run that needs more events stops with exit status 2 and no output; an
# ideal-share computation that would need more is refused before the run
W=tests/cli/many-wakeups.yaml
"$CGSIM" run "$W" --max-events 10000 -o "$tmp/wl" > "$tmp/wl.out" 2> "$tmp/wl.err"; st=$?
[ $st -eq 2 ] && [ ! -s "$tmp/wl.out" ] && [ ! -e "$tmp/wl" ] && grep -q \
	"^$W: error: stopped at [0-9.e-]* s of 1 s simulated: the run needs more than 10000 events, the work limit of a run (--max-events N raises it)$" \
	"$tmp/wl.err" && ok || bad "run --max-events 10000: exit $st, $(cat "$tmp/wl.err")"
"$CGSIM" run "$W" --max-events 0 > /dev/null; st=$?
[ $st -eq 0 ] && ok || bad "run --max-events 0 (no limit): exit $st"
"$CGSIM" check --max-events 10000 "$W" > "$tmp/wl.out" 2>&1; st=$?
[ $st -eq 2 ] && grep -q "the work limit" "$tmp/wl.out" && ok || bad "check --max-events: exit $st"
"$CGSIM" compare "$W" --max-events 10000 > "$tmp/wl.out" 2>&1; st=$?
[ $st -eq 2 ] && grep -q "the work limit" "$tmp/wl.out" && ok || bad "compare --max-events: exit $st"
"$CGSIM" run "$W" --max-events -1 > /dev/null 2>&1; st=$?
[ $st -eq 2 ] && ok || bad "run --max-events -1: exit $st, expected 2"
# 3 threads and 2 cgroups (/ and a), computed at the start and after 2 operations: 15, which
# leaves the machine nothing of a limit of 15
printf 'name: t\nduration: 1s\ncgroups: { a: }\nprocesses:\n  p: { cgroup: a, threads: { t: { count: 3, behavior: busy } } }\ntimeline:\n  - { at: 0.2s, do: "mkdir b" }\n  - { at: 0.4s, do: "rmdir b" }\n' > "$tmp/ideal.yaml"
"$CGSIM" run "$tmp/ideal.yaml" --max-events 15 > /dev/null 2> "$tmp/wl.err"; st=$?
[ $st -eq 2 ] && [ "$(cat "$tmp/wl.err")" = "$tmp/ideal.yaml: error: computing the ideal shares at the start and at each timeline operation takes 3 x 5 events of work, and a run may take 15 (--max-events N raises the limit)" ] \
	&& ok || bad "ideal shares over the work limit: exit $st, $(cat "$tmp/wl.err")"

# names from the file never reach the shell or gnuplot as code (compare -o runs render.sh)
"$CGSIM" compare tests/cli/shell-in-names.yaml -o "$tmp/shell" > /dev/null 2>&1; st=$?
[ $st -eq 0 ] && [ -z "$(find "$tmp/shell" . -maxdepth 2 -name PWNED)" ] \
	&& ok || bad "compare -o of shell-in-names.yaml: exit $st, or a name ran as a command"
if command -v gnuplot > /dev/null; then
	[ -s "$tmp/shell/figures/sweep.svg" ] && grep -q "share of group x'\$(touch" \
		"$tmp/shell/figures/sweep.svg" && ok || bad "shell-in-names: the sweep title is not the group's name"
fi

# a sweep value that cannot be applied is named where the file has it
"$CGSIM" compare tests/cli/sweep-bad-value.yaml > "$tmp/sw.out" 2> "$tmp/sw.err"; st=$?
[ $st -eq 2 ] && [ ! -s "$tmp/sw.out" ] && [ "$(cat "$tmp/sw.err")" = "tests/cli/sweep-bad-value.yaml:13:7: error: machine.cpus must be from 1 to 1024, not 0" ] \
	&& ok || bad "sweep with a bad value: exit $st, $(cat "$tmp/sw.err")"

# names holding a comma, a quote, a '|', a backquote and an escape character keep every
# output's format: no raw control character in text, one cell per column in markdown, quoted
# CSV fields
O=tests/cli/odd-names.yaml
esc=$(printf '\033')
"$CGSIM" run "$O" > "$tmp/odd.txt" && "$CGSIM" compare "$O" >> "$tmp/odd.txt"; st=$?
[ $st -eq 0 ] && ! grep -q "$esc" "$tmp/odd.txt" && grep -q 'c|`d`\\x1b\[31m' "$tmp/odd.txt" \
	&& ok || bad "odd names: exit $st, or a raw control character in the text reports"
"$CGSIM" compare "$O" --markdown > "$tmp/odd.md"; st=$?
cells=$(grep '^|' "$tmp/odd.md" | sed 's/\\|//g' | awk -F'|' '{ print NF }' | sort -u)
[ $st -eq 0 ] && [ "$cells" = 4 ] && ! grep -q "$esc" "$tmp/odd.md" \
	&& ok || bad "odd names: markdown rows of unequal width ($cells fields)"
"$CGSIM" compare "$O" -o "$tmp/odd" > /dev/null; st=$?
[ $st -eq 0 ] && grep -q '^"a,""b""",base,group,"a,""b""",' "$tmp/odd/sweep.csv" \
	&& grep -q '^"a,""b""",' "$tmp/odd/base/groups.csv" \
	&& ok || bad "odd names: CSV fields not quoted"

# a run killed while writing leaves hidden .NAME.tmp files; the next run into DIR replaces
# them and renames them away
mkdir -p "$tmp/killed/base"
for f in .compare.txt.tmp .sweep.csv.tmp base/.summary.json.tmp base/.threads.csv.tmp; do
	echo partial > "$tmp/killed/$f"
done
"$CGSIM" compare "$SC" -o "$tmp/killed" > /dev/null; st=$?
[ $st -eq 0 ] && [ -z "$(find "$tmp/killed" -name '*.tmp')" ] \
	&& ok || bad "compare -o after a killed run: exit $st, left $(find "$tmp/killed" -name '*.tmp')"

# an output directory whose name holds a quote: render.sh is run without a shell parsing it;
# a run shorter than one sampling interval (10 ms) has no time series, and no figure of it
"$CGSIM" compare tests/cli/many-wakeups.yaml --set duration=10ms -o "$tmp/it's" > /dev/null 2>&1; st=$?
[ $st -eq 0 ] && [ -x "$tmp/it's/render.sh" ] && ! grep -q shares-over-time "$tmp/it's/render.sh" \
	&& ok || bad "compare -o DIR'WITH-QUOTE of a 10 ms run: exit $st"

# interposing is refused at the cgroup limit before its work grows quadratically
awk 'BEGIN { print "name: t\nduration: 100ms\ncgroups:\n  /: { cgroup.subtree_control: +cpu }\n  vm:\nprocesses:";
	for (i = 0; i < 10001; i++) printf "  p%d: {threads: {t: {behavior: busy}}}\n", i;
	print "variants:\n  ipo: { transform: interpose }" }' > "$tmp/ipo.yaml"
"$CGSIM" run "$tmp/ipo.yaml" --variant ipo > /dev/null 2> "$tmp/ipo.err"; st=$?
[ $st -eq 2 ] && [ "$(cat "$tmp/ipo.err")" = "$tmp/ipo.yaml:10009:3: error: interpose: more than 10000 cgroups (each process interposed gets one)" ] \
	&& ok || bad "interposing 10,001 processes: exit $st, $(cat "$tmp/ipo.err")"

# compare: the same numbers as run --variant X --json
"$CGSIM" compare "$SC" -o "$tmp/cmp" > "$tmp/cmp.txt"; [ $? -eq 0 ] && ok || bad "compare exit status"
"$CGSIM" run "$SC" --variant interposed --json > "$tmp/ipo.json"
cmp -s "$tmp/ipo.json" "$tmp/cmp/interposed/summary.json" && ok || bad "compare's interposed differs from run --variant interposed"
cmp -s "$tmp/a.json" "$tmp/cmp/base/summary.json" && ok || bad "compare's base differs from run"
[ "$(awk 'length > 80' "$tmp/cmp.txt" | wc -l)" -eq 0 ] && ok || bad "compare's text is wider than 80 columns"
for f in compare.txt compare.md compare.json; do
	[ -s "$tmp/cmp/$f" ] && ok || bad "compare -o DIR lacks $f"
done
"$CGSIM" compare "$SC" --markdown --json > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "compare --markdown --json"
"$CGSIM" compare "$SC" --json --markdown 2>&1 > /dev/null | head -n 1 | grep -qx \
	'cgsim: --markdown and --json exclude each other' && ok || bad "compare --json --markdown: message"
# a format asked for twice is asked for once; run and shares print JSON as asked
"$CGSIM" run "$SC" --json --json | cmp -s - "$tmp/a.json" && ok || bad "run --json --json"
"$CGSIM" shares "$SC" --json | head -n 1 | grep -qx '{' && ok || bad "shares --json"

# a sweep over names (cgroup paths) has no x axis: -o DIR still works, without a sweep figure
"$CGSIM" compare scenarios/depth-overhead.yaml -o "$tmp/depth" > /dev/null 2>&1
[ $? -eq 0 ] && ok || bad "compare -o DIR on a sweep over names"
[ -s "$tmp/depth/render.sh" ] && [ ! -e "$tmp/depth/sweep-target.csv" ] && ok \
	|| bad "compare -o DIR on a sweep over names: render.sh missing or a sweep figure written"

# figures of cgroups: the labels from plots/items-VARIANT.gp (gnuplot would eat a backslash
# read from the data); the leaves drawn ("/" and the slices above them left out: each level
# would repeat the one below), and not a leaf that holds all the work (ideal 1.0); the labels
# leave out the directory they all share and the title says it
"$CGSIM" compare tests/cli/long-twins.yaml -o "$tmp/twf" > /dev/null 2>&1
grep -qxF "label[1] = 'machine.slice/machine-qemu\x2d1\x2dvm.scope'" "$tmp/twf/plots/items-base.gp" \
	&& grep -qxF "label[2] = 'user.slice/machine-qemu\x2d1\x2dvm.scope'" "$tmp/twf/plots/items-base.gp" \
	&& grep -qx "nitems = 2" "$tmp/twf/plots/items-base.gp" && grep -qx "under = ''" "$tmp/twf/plots/items-base.gp" \
	&& [ "$(sed -n 2p "$tmp/twf/base/bars.csv" | cut -d, -f4-)" = "0.500000,machine.slice/machine-qemu\x2d1\x2dvm.scope" ] \
	&& ok || bad "compare -o: cgroup labels for the figures"
if command -v gnuplot > /dev/null 2>&1; then
	grep -qF 'user.slice/machine-qemu\x2d1\x2dvm.scope' "$tmp/twf/figures/shares-bars-base.svg" \
		&& ok || bad "figures: a backslash in a cgroup name is lost"
fi
printf '%s\n' 'name: slices' 'duration: 2s' 'cgroups:' '  "/": { cgroup.subtree_control: +cpu }' \
	'  system.slice: { cgroup.subtree_control: +cpu }' '  system.slice/a.service: { cpu.weight: 300 }' \
	'  system.slice/b.service: {}' 'processes:' \
	'  a: { cgroup: system.slice/a.service, threads: { w: { behavior: busy } } }' \
	'  b: { cgroup: system.slice/b.service, threads: { w: { behavior: busy } } }' \
	'timeline:' '  - { at: 1.5s, do: "write system.slice/b.service/cpu.weight 300" }' > "$tmp/slices.yaml"
"$CGSIM" compare "$tmp/slices.yaml" -o "$tmp/slices" > /dev/null 2>&1
g="$tmp/slices/plots/items-base.gp"
grep -qx "nitems = 2" "$g" && grep -qx "label\[1\] = 'a.service'" "$g" && grep -qx "under = ' under system.slice/'" "$g" \
	&& grep -qx "ideal\[1\] = 0.[0-9]*" "$g" && grep -qx "show_ideal = 0" "$g" && grep -qx "nmarks = 1" "$g" \
	&& grep -qx "mark_t\[1\] = 1.500000" "$g" && grep -qxF "mark_label[1] = 'write system.slice/b.service/cpu.weight 300'" "$g" \
	&& ok || bad "figures: system.slice left out, its directory out of the labels, the timeline marked"
# threads in the root next to a cgroup: an item of their own (Zijlstra's app at 0.8, 4 x 0.2)
g="$tmp/cmp/plots/items-base.gp"
grep -qxF "label[1] = '/ (its own threads)'" "$g" && grep -qx "ideal\[1\] = 0.800000" "$g" \
	&& grep -qxF "label[2] = 'vm'" "$g" && grep -qx "nitems = 2" "$g" \
	&& ok || bad "figures: the root's own threads"
# no cgroup below "/": the processes drawn instead; one thread alone: no share figure at all
"$CGSIM" compare scenarios/bursty-mix.yaml -o "$tmp/nocg" > /dev/null 2>&1
g="$tmp/nocg/plots/items-base.gp"
grep -qx "items_what = 'process'" "$g" && grep -qx "nitems = 2" "$g" && grep -qxF "label[2] = 'bursty *'" "$g" \
	&& grep -qx "ideal\[1\] = 0.800000" "$g" && grep -q "^bound_note = '\*: the ideal is only an upper bound" "$g" \
	&& grep -q "shares-bars-base" "$tmp/nocg/render.sh" && ok || bad "figures of processes without a cgroup"
# per-thread latency: each thread's complementary distribution, from 1 down to 1/n
b1=$(awk '/^# bursty\/b.1$/ { on = 1; next } /^$/ { on = 0 } on && !/^#/' "$tmp/nocg/base/latency-threads.csv")
first=$(echo "$b1" | head -n 1 | cut -d, -f2); last=$(echo "$b1" | tail -n 1 | cut -d, -f2)
n=$("$CGSIM" run scenarios/bursty-mix.yaml --json | grep -A4 '"name": "b.1"' | grep -o '"latency_samples": [0-9]*' | grep -o '[0-9]*$')
[ "$first" = 1 ] && [ -n "$n" ] && awk -v l="$last" -v n="$n" 'BEGIN { exit !((l - 1 / n) ^ 2 < 1e-12) }' \
	&& grep -qx "tlabel\[1\] = 'bursty/b.1'" "$tmp/nocg/plots/latency-base.gp" \
	&& ok || bad "latency-threads.csv: from $first to $last over $n samples"
# past 24 items a share figure draws the 24 farthest from their ideal (threads.csv: process,
# name, cgroup, cpu_ns, share, ideal): the names in bars.csv are the top 24 by |share - ideal|
{ printf 'name: thirty\nduration: 2s\nmachine: { cpus: 2 }\nprocesses:\n'
  for i in $(seq 1 30); do
	printf '  p%s: { threads: { t: { behavior: { bursty: { run: exp(1ms), sleep: exp(%sms) } } } } }\n' $i $i
  done; } > "$tmp/thirty.yaml"
"$CGSIM" compare "$tmp/thirty.yaml" -o "$tmp/thirty" > /dev/null 2>&1
awk -F, 'NR > 1 { e = $5 - $6; if (e < 0) e = -e; printf "%.9f %s\n", e, $1 }' "$tmp/thirty/base/threads.csv" | \
	sort -k1,1gr -k2,2 | head -n 24 | cut -d' ' -f2 | sort > "$tmp/thirty-want"
tail -n +2 "$tmp/thirty/base/bars.csv" | cut -d, -f5 | sort > "$tmp/thirty-got"
cmp -s "$tmp/thirty-want" "$tmp/thirty-got" && grep -qx "of_items = 30" "$tmp/thirty/plots/items-base.gp" \
	&& grep -qx "nitems = 24" "$tmp/thirty/plots/items-base.gp" \
	&& ok || bad "figures: the 24 items farthest from their ideal: $(tr '\n' ' ' < "$tmp/thirty-got")"
"$CGSIM" compare tests/cli/lat-alone.yaml -o "$tmp/alone" > /dev/null 2>&1
! grep -q "shares-" "$tmp/alone/render.sh" && [ ! -e "$tmp/alone/plots/items-base.gp" ] \
	&& ok || bad "figures of shares for one thread alone"
# figures: rendered when gnuplot is there, each PNG a PNG and each SVG an SVG
for f in render.sh plots/common.gp plots/sweep.gp sweep-target.csv; do
	[ -s "$tmp/cmp/$f" ] && ok || bad "compare -o DIR lacks $f"
done
if command -v gnuplot > /dev/null 2>&1; then
	for n in shares-over-time-base shares-bars-interposed sweep; do
		[ "$(head -c 8 "$tmp/cmp/figures/$n.png" | od -An -tx1 | tr -d ' ')" = "89504e470d0a1a0a" ] \
			&& ok || bad "figures/$n.png is not a PNG"
		grep -q '<svg' "$tmp/cmp/figures/$n.svg" && ok || bad "figures/$n.svg is not an SVG"
	done
	"$CGSIM" compare scenarios/latency-periodic.yaml -o "$tmp/lat" > /dev/null
	for n in latency-ccdf latency-threads-base; do
		[ "$(head -c 8 "$tmp/lat/figures/$n.png" | od -An -tx1 | tr -d ' ')" = "89504e470d0a1a0a" ] \
			&& ok || bad "figures/$n.png is not a PNG"
	done
	for n in shares-bars-base shares-over-time-base latency-threads-base latency-ccdf; do
		[ -s "$tmp/nocg/figures/$n.svg" ] && ok || bad "bursty-mix: no figure $n"
	done
	[ -s "$tmp/slices/figures/shares-over-time-base.png" ] && ok || bad "slices: no shares-over-time"
else
	echo "cli: gnuplot not installed, figures not checked"
fi

# usage
"$CGSIM" run --help > /dev/null; [ $? -eq 0 ] && ok || bad "run --help"
"$CGSIM" run > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "run without a scenario"
"$CGSIM" run "$SC" --bogus > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "run --bogus"
"$CGSIM" run "$SC" --variant nosuch -o "$tmp/none" > "$tmp/none.out" 2>&1; st=$?
[ $st -eq 2 ] && [ ! -e "$tmp/none" ] && ok || bad "a failed run wrote -o DIR or did not exit 2"

# a sweep whose target is a latency: each value is the thread's p99 in that run, in ms
"$CGSIM" compare tests/cli/sweep-latency.yaml > "$tmp/swl.txt"; st=$?
want=""
for v in 0.1ms 0.7ms 3ms; do
	ns=$("$CGSIM" run tests/cli/sweep-latency.yaml --set processes.rt.threads.tick.slice=$v --json |
		grep '"tick.1"' | sed 's/.*"latency_p99_ns": \([0-9]*\).*/\1/')
	want="$want$v $(awk -v n="$ns" 'BEGIN { printf "%.4f", n / 1e6 }') "
done
got=$(sed -n '/^sweep of .*: latency_p99 (ms) of thread rt\/tick.1$/,$p' "$tmp/swl.txt" |
	tail -n +3 | awk '{ printf "%s %s ", $1, $2 }')
[ $st -eq 0 ] && [ "$got" = "$want" ] && ok || bad "sweep on latency_p99: '$got', want '$want'"

# --trace: the trace is the run's, whichever command writes it; a failed run leaves none
"$CGSIM" run "$SC" --variant interposed --trace "$tmp/tr.txt" > "$tmp/tr.out"; st=$?
[ $st -eq 0 ] && head -1 "$tmp/tr.txt" | grep -qx '# tracer: nop' \
	&& grep -q ': sched_switch: prev_comm=' "$tmp/tr.txt" && [ -s "$tmp/tr.out" ] \
	&& ok || bad "run --trace FILE: exit $st"
"$CGSIM" compare "$SC" -o "$tmp/trc" --trace > /dev/null \
	&& cmp -s "$tmp/tr.txt" "$tmp/trc/interposed/trace.txt" && [ -s "$tmp/trc/base/trace.txt" ] \
	&& ok || bad "compare --trace: DIR/interposed/trace.txt differs from run --trace's"
"$CGSIM" run "$SC" --variant interposed --trace - > "$tmp/tr2.txt" \
	&& cmp -s "$tmp/tr.txt" "$tmp/tr2.txt" && ok || bad "run --trace - is not the trace alone"
"$CGSIM" run "$SC" --trace "$tmp/trf.txt" --max-events 1000 > /dev/null 2>&1; st=$?
[ $st -eq 2 ] && [ -z "$(ls -A "$tmp" | grep trf)" ] && ok || bad "a failed run --trace left a file"
"$CGSIM" compare "$SC" -o "$tmp/trf" --trace --max-events 1000 > /dev/null 2>&1; st=$?
[ $st -eq 2 ] && [ ! -e "$tmp/trf" ] && ok || bad "a failed compare --trace left $tmp/trf"
"$CGSIM" compare "$SC" --trace > /dev/null 2>&1; [ $? -eq 2 ] && ok || bad "compare --trace without -o"
"$CGSIM" run "$SC" --trace "$tmp/nodir/t.txt" > /dev/null 2> "$tmp/trn.err"; st=$?
[ $st -eq 2 ] && grep -q "cannot write $tmp/nodir/t.txt: No such file" "$tmp/trn.err" \
	&& ok || bad "run --trace into a missing directory: exit $st, $(cat "$tmp/trn.err")"

# validate --live: every refusal before anything is made is exit 2, one line on stderr, nothing
# on stdout (the live run itself needs root and a kernel: tests/live/validate-library.sh)
refused() {	# WHAT ARGS...: exit 2, empty stdout, one line on stderr
	what=$1; shift
	"$@" > "$tmp/v.out" 2> "$tmp/v.err"; st=$?
	[ $st -eq 2 ] && [ ! -s "$tmp/v.out" ] && [ "$(wc -l < "$tmp/v.err")" -ge 1 ] \
		&& ok || bad "validate $what: exit $st, or output on stdout"
}
refused "with synchronisation steps" "$CGSIM" validate scenarios/sync-mutex.yaml --live
refused "without --live" "$CGSIM" validate "$SC"
refused "--reps 0" "$CGSIM" validate "$SC" --live --reps 0
# digits only, as every count of every command: no sign or blank to wrap it
for r in +5 " 5" 5x; do
	"$CGSIM" validate "$SC" --live --reps "$r" 2>&1 | head -n 1 |
		grep -qx "cgsim: --reps needs a number from 1 to 100, not '$r'" && ok || bad "validate --reps '$r'"
done
refused "--tolerance -1" "$CGSIM" validate "$SC" --live --tolerance -1
refused "--cleanup with a scenario" "$CGSIM" validate "$SC" --cleanup
# --vm: a kernel that is not a bzImage, a layout no kernel takes, v1 or rfc2017 scripts, all
# before QEMU starts
refused "--vm --kernel not a bzImage" "$CGSIM" validate "$SC" --vm --kernel "$SC"
"$CGSIM" validate "$SC" --vm --kernel "$SC" 2>&1 | grep -q "is not an x86 bzImage" && ok ||
	bad "validate --vm --kernel not a bzImage: the reason"
# (where KVM cannot run guests: the note is about QEMU's emulation)
if ! { [ -e /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; }; then
	"$CGSIM" validate scenarios/bursty-mix.yaml --vm --set machine.cpus=4 --kernel "$SC" 2>&1 |
		grep -q "^scenarios/bursty-mix.yaml:[0-9]*: note: thread '.*' sleeps on timers, and under TCG" &&
		ok || bad "validate --vm: no note on timer wakeups under TCG at 4 vCPUs"
fi
refused "--vm with synchronisation steps" "$CGSIM" validate scenarios/sync-mutex.yaml --vm
# cgroup_mode came in 7.3: a scenario asking an older kernel for another mode than smp is
# refused before QEMU starts, by the version in the bzImage's header (the x86 boot protocol's:
# "HdrS" at 0x202, the version's offset from 0x200 at 0x20e). Only where the scenario format
# reads scheduler.cgroup_mode (docs/scenario-format.md): before, no scenario asks for a mode.
fake_bzimage() {	# VERSION FILE: a setup header of that version and nothing to boot
	{ head -c 514 /dev/zero; printf 'HdrS'; head -c 8 /dev/zero; printf '\000\003'
	  head -c 752 /dev/zero; printf '%s (fake) #1\000' "$1"; } > "$2"
}
# a mode the scenario asks for itself (max, not 7.3's default) cannot be had from a 6.12 guest
fake_bzimage 6.12.118+deb12-amd64 "$tmp/bz612"
refused "--vm cgroup_mode max on 6.12" "$CGSIM" validate "$SC" --vm --kernel "$tmp/bz612" \
	--set scheduler.kernel=7.3 --set scheduler.cgroup_mode=max
grep -q "^cgsim: the guest kernel Linux 6.12.118+deb12-amd64 has no cgroup_mode (it came in 7.3" \
	"$tmp/v.err" && ok || bad "--vm cgroup_mode max on 6.12: $(cat "$tmp/v.err")"
refused "(cgroupfs) --vm v1" "$CGSIM" cgroupfs --vm --semantics v1 tests/cgroupfs/v2/extra-kill.cgs
refused "(cgroupfs) --vm rfc2017" "$CGSIM" cgroupfs --vm --semantics rfc2017 \
	tests/cgroupfs/v2/extra-kill.cgs
refused "(cgroupfs) rfc2017 live" "$CGSIM" cgroupfs --live --semantics rfc2017 tests/cgroupfs/v2/extra-kill.cgs
CGSIM_LIVE_MOUNTINFO=/dev/null refused "(cgroupfs) with no hierarchy" \
	"$CGSIM" cgroupfs --live tests/cgroupfs/v2/extra-kill.cgs
CGSIM_LIVE_MOUNTINFO=/dev/null refused "with no cpu controller" "$CGSIM" validate "$SC" --live
[ "$(wc -l < "$tmp/v.err")" -eq 1 ] && ok || bad "validate with no cpu controller: one line"
# calibrate --live: the same, before anything is made or measured
refused "(calibrate) without --live" "$CGSIM" calibrate
refused "(calibrate) --reps 0" "$CGSIM" calibrate --live --reps 0
refused "(calibrate) --round-trips 999" "$CGSIM" calibrate --live --round-trips 999
refused "(calibrate) with a file" "$CGSIM" calibrate --live "$SC"
refused "(calibrate) -o into a missing directory" "$CGSIM" calibrate --live -o "$tmp/nodir/c.json"
grep -q "cannot write $tmp/nodir/c.json" "$tmp/v.err" && ok || bad "calibrate -o: $(cat "$tmp/v.err")"
CGSIM_LIVE_MOUNTINFO=/dev/null refused "(calibrate) with no cpu controller" "$CGSIM" calibrate --live
[ "$(id -u)" -ne 0 ] || grep -q "no cpu controller\|cpu" "$tmp/v.err" && ok || bad "calibrate: $(cat "$tmp/v.err")"
refused "(calibrate) --costs without --check" "$CGSIM" calibrate --live --costs tests/cli/machine.profile
refused "(calibrate) -o and --profile alike" "$CGSIM" calibrate --live -o "$tmp/p" --profile "$tmp/p"
refused "(calibrate) --check with a missing profile" "$CGSIM" calibrate --live --check --costs "$tmp/none.profile"
grep -q "none.profile" "$tmp/v.err" && ok || bad "calibrate --costs missing: $(cat "$tmp/v.err")"
refused "(calibrate) --check with a scenario for a profile" "$CGSIM" calibrate --live --check --costs "$SC"
grep -q "not a cgsim cost profile" "$tmp/v.err" && ok || bad "calibrate --costs SC: $(cat "$tmp/v.err")"
refused "(calibrate) --profile into a missing directory" "$CGSIM" calibrate --live --profile "$tmp/nodir/p"
[ ! -e "$tmp/nodir" ] && ok || bad "calibrate --profile made a directory"
if [ "$(id -u)" -eq 0 ]; then
	# a v1 hierarchy in a scratch directory: the plan refuses before anything is made there
	mkdir -p "$tmp/fakecpu"
	echo "31 25 0:27 / $tmp/fakecpu rw - cgroup cgroup rw,cpu,cpuacct" > "$tmp/mi"
	CGSIM_LIVE_MOUNTINFO=$tmp/mi refused "with more CPUs than online" \
		"$CGSIM" validate "$SC" --live --set machine.cpus=1000
	grep -q "simulates 1000 CPUs and this machine has" "$tmp/v.err" && \
		[ -z "$(ls -A "$tmp/fakecpu")" ] && ok || bad "validate's CPU refusal: $(cat "$tmp/v.err")"
	# cgroupfs --live on a scratch directory standing for a cgroup2 mount: a name the script
	# would make that exists is refused; otherwise its helpers are started and killed, what it
	# made removed and the root's files it wrote put back
	mkdir -p "$tmp/fake2/a"
	: > "$tmp/fake2/cgroup.procs"
	echo "hugetlb" > "$tmp/fake2/cgroup.max.depth"
	echo "40 25 0:30 / $tmp/fake2 rw - cgroup2 cgroup2 rw" > "$tmp/mi2"
	printf 'proc p threads=3\nmkdir a\n' > "$tmp/s1.cgs"
	CGSIM_LIVE_MOUNTINFO=$tmp/mi2 refused "(cgroupfs) over an existing name" \
		"$CGSIM" cgroupfs --live "$tmp/s1.cgs"
	grep -q "exists already" "$tmp/v.err" && ok || bad "cgroupfs --live: $(cat "$tmp/v.err")"
	rmdir "$tmp/fake2/a"
	printf 'proc p threads=3\nmkdir b\nmkdir b/c\nwrite cgroup.max.depth 7\n' > "$tmp/s2.cgs"
	CGSIM_LIVE_MOUNTINFO=$tmp/mi2 "$CGSIM" cgroupfs --live "$tmp/s2.cgs" > "$tmp/s2.out" 2>&1
	[ "$(ls -A "$tmp/fake2" | tr '\n' ' ')" = "cgroup.max.depth cgroup.procs " ] && \
		[ "$(cat "$tmp/fake2/cgroup.max.depth")" = hugetlb ] && \
		! pgrep -x cgsim-live > /dev/null && ok || bad "cgroupfs --live left something: $(ls -A "$tmp/fake2")"
else
	CGSIM_LIVE_MOUNTINFO=/dev/null refused "as a user" "$CGSIM" validate "$SC" --live
	grep -q "needs root" "$tmp/v.err" && ok || bad "validate as a user: $(cat "$tmp/v.err")"
fi

# post keeps a wakeup that resume loses (tests/cli/post-kept.yaml derives both shares)
"$CGSIM" check tests/cli/post-kept.yaml > /dev/null && ok || bad "check of tests/cli/post-kept.yaml"
"$CGSIM" run --json tests/cli/post-kept.yaml --variant resume 2>&1 | grep '"name": "b.1"' |
	grep -q '"share": 0.050000' && ok || bad "post-kept, variant resume: not 0.05"
# machine.costs: a cost profile beside the scenario, overridden by scheduler.costs, or inline
# (tests/cli/profile.yaml derives each overhead)
P=tests/cli/profile.yaml
"$CGSIM" check "$P" > /dev/null && ok || bad "check of $P"
for v in override:0.00301000 inline:0.00200000; do
	"$CGSIM" run --json "$P" --variant "${v%%:*}" > "$tmp/prof.json" 2>&1 &&
		grep -q "\"fraction\": ${v#*:}" "$tmp/prof.json" && ok ||
		bad "$P variant ${v%%:*}: $(grep fraction "$tmp/prof.json" | head -3)"
done

# a thread's start is not a wakeup: a busy thread whose start is in the window has no wakeup,
# and a latency or delayed bound on it fails check as not measured (tests/cli/busy-unmeasured.yaml)
B=tests/cli/busy-unmeasured.yaml
"$CGSIM" run "$B" --json > "$tmp/bu.json"
[ "$(grep -c '"wakeups": 0,' "$tmp/bu.json")" -eq 4 ] && \
	[ "$(grep -c '"latency_samples": 0,' "$tmp/bu.json")" -eq 4 ] && ok || bad "busy threads woke"
for s in "" "--seeds 3"; do
	"$CGSIM" check $s "$B" > "$tmp/bu.check"; st=$?
	[ $st -eq 1 ] && [ "$(grep -c '^FAIL .* not measured: no wakeup in the measured window' "$tmp/bu.check")" -eq 2 ] \
		&& ok || bad "check $s of an unmeasured bound: exit $st, $(cat "$tmp/bu.check")"
done
# run --seeds --json carries every latency figure of a single run, each with its spread
"$CGSIM" run scenarios/smp-duty-mix.yaml --seeds 5 --json > "$tmp/s5.json"
for k in latency_p90_ns latency_p999_ns latency_p99_ns latency_min_ns latency_mean_ns; do
	for x in "" _min _max _ci; do
		grep -q "\"$k$x\": " "$tmp/s5.json" || { bad "run --seeds 5 --json lacks $k$x"; continue 2; }
	done
	ok
done


# every report names the kernel it modelled, and what the scenario changed of its defaults
K=tests/cli/kernels.yaml
[ "$("$CGSIM" run "$K" | sed -n 2p)" = 'kernel 7.3 (eevdf-flat, cgroup_mode concur)' ] && ok \
	|| bad "run: the kernel line: $("$CGSIM" run "$K" | head -3)"
"$CGSIM" run "$K" --variant cfs > "$tmp/k.txt"
[ "$(sed -n 2,3p "$tmp/k.txt")" = "$(printf 'kernel 7.3 (cfs, cgroup_mode concur)\n  overridden: policy')" ] \
	&& ok || bad "run --variant cfs: the kernel and what it overrides: $(head -4 "$tmp/k.txt")"
"$CGSIM" run "$K" --variant cfs --json | grep -qx '  "kernel": "7.3", "cgroup_mode": "concur", "overrides": \["policy"\],' \
	&& ok || bad "run --json: kernel, cgroup_mode, overrides"
[ "$("$CGSIM" run "$K" --variant old --seeds 2 | sed -n 2p)" = 'kernel 6.12 (eevdf, cgroup_mode smp)' ] \
	&& ok || bad "run --seeds: the kernel line"
"$CGSIM" run "$K" --trace "$tmp/k.trace" > /dev/null
grep -qx '# cgsim: 2 CPUs, kernel 7.3 (eevdf-flat, cgroup_mode concur), HZ 1000' "$tmp/k.trace" \
	&& ok || bad "trace: the kernel in the header: $(grep '^# cgsim' "$tmp/k.trace")"
"$CGSIM" compare "$K" -o "$tmp/kc" > "$tmp/kc.txt"; st=$?
[ $st -eq 0 ] && grep -qx 'variant base: kernel 7.3 (eevdf-flat, cgroup_mode concur)' "$tmp/kc.txt" \
	&& grep -qx 'variant old: kernel 6.12 (eevdf, cgroup_mode smp)' "$tmp/kc.txt" \
	&& grep -qx 'variant cfs: kernel 7.3 (cfs, cgroup_mode concur), overridden: policy' "$tmp/kc.txt" \
	&& grep -qx 'kernel at each value:' "$tmp/kc.txt" \
	&& grep -qx '  6.6 (base, old): kernel 6.6 (eevdf, cgroup_mode smp)' "$tmp/kc.txt" \
	&& grep -qx '  6.6 (cfs): kernel 6.6 (cfs, cgroup_mode smp), overridden: policy' "$tmp/kc.txt" \
	&& awk 'length > 80 { exit 1 }' "$tmp/kc.txt" && ok \
	|| bad "compare: the kernels by variant and by value: $(cat "$tmp/kc.txt")"
# a sweep of kernels has no x axis ("6.6" < "6.12"), and no one kernel to put in a title
[ ! -e "$tmp/kc/sweep-target.csv" ] && grep -qx "kernel = ''" "$tmp/kc/plots/labels.gp" \
	&& grep -qx "vkernel = 'kernel 6.12 (eevdf, cgroup_mode smp)'" "$tmp/kc/plots/items-old.gp" \
	&& ok || bad "compare -o: a kernel sweep drawn on a number axis, or the titles' kernels"
"$CGSIM" compare "$K" --markdown | grep -qx -- '- variant old: kernel 6.12 (eevdf, cgroup_mode smp)' \
	&& ok || bad "compare --markdown: the kernels by variant"

# compare --sweep KEY=V1,V2: the file's sweep: replaced (its target kept), or --set sweep=...;
# the modes' shares are each rule's (docs/root-threads-7.3.md): 2 CPUs, 4 root threads, vm's
# 2 threads, a CPU running 2 of the root's and 1 of vm's: smp 512 per CPU against 2 x 1024:
# 0.20; max 2 x 1024 x 1/2 = 1024 against 2 x 1024: 1/3
"$CGSIM" compare scenarios/zijlstra-root-vm.yaml --sweep scheduler.cgroup_mode=smp,max \
	--set scheduler.kernel=7.3 > "$tmp/sw.txt" 2>&1
grep -q '^sweep of scheduler.cgroup_mode: share/ideal of group vm$' "$tmp/sw.txt" &&
	grep -Eq '^smp +0\.(19[0-9]|20[0-9])/0\.200 ' "$tmp/sw.txt" &&
	grep -Eq '^max +0\.3[23][0-9]/0\.200 ' "$tmp/sw.txt" &&
	"$CGSIM" compare scenarios/zijlstra-root-vm.yaml --set scheduler.kernel=7.3 \
		--set sweep=scheduler.cgroup_mode=smp,max | cmp -s - "$tmp/sw.txt" \
	&& ok || bad "compare --sweep: $(cat "$tmp/sw.txt")"
"$CGSIM" compare scenarios/zijlstra-root-vm.yaml --sweep scheduler.cgroup_mode=smp,concur \
	> "$tmp/sw.out" 2> "$tmp/sw.err"; st=$?
[ $st -eq 2 ] && [ ! -s "$tmp/sw.out" ] &&
	grep -qx -- '--set sweep=scheduler.cgroup_mode=smp,concur: error: scheduler.cgroup_mode concur needs kernel 7.3 or later: kernel 6.18 has no cgroup_mode and weighs every group as smp' "$tmp/sw.err" \
	&& ok || bad "compare --sweep of a mode on 6.18: exit $st, $(cat "$tmp/sw.out" "$tmp/sw.err")"
"$CGSIM" compare scenarios/zijlstra-root-vm.yaml --sweep machine.cpus \
	> "$tmp/sw.out" 2> "$tmp/sw.err"; st=$?
[ $st -eq 2 ] && [ ! -s "$tmp/sw.out" ] && grep -q "sweep takes KEY=V1,V2,..." "$tmp/sw.err" \
	&& ok || bad "compare --sweep without values: exit $st, $(cat "$tmp/sw.out" "$tmp/sw.err")"
usage_error "compare --sweep twice" "one --sweep (several keys: a sweep: block with key: [A, B])" \
	compare "$SC" --sweep seed=1,2 --sweep seed=3

# a sweep's text table shows every variant, four a block (kernels-root-vm has ten), and no
# "kernel at each value" where each variant keeps its kernel through the sweep
"$CGSIM" compare scenarios/kernels-root-vm.yaml > "$tmp/kx.txt"
[ "$(grep -c '^value ' "$tmp/kx.txt")" -eq 3 ] &&
	grep -Eq '^value +threaded +threaded-7\.2$' "$tmp/kx.txt" &&
	grep -Eq '^64 +0\.5[0-9]{2}/0\.500 +0\.4[89][0-9]/0\.500$' "$tmp/kx.txt" &&
	! grep -q 'kernel at each value' "$tmp/kx.txt" &&
	awk 'length($0) > 80 && !/^(sweep of|variants)/ { exit 1 }' "$tmp/kx.txt" \
	&& ok || bad "compare: a sweep of ten variants: $(sed -n '/^sweep/,$p' "$tmp/kx.txt")"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
