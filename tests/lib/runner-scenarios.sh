# tests/lib/runner-scenarios.sh - sourced by the runners that take `CGSIM SCENARIO...`
# (tests/trace/run.sh, tests/trace/run-stats.sh, tests/replay/run.sh), after `set -u`, with
# their arguments: checks them, sets
#   $cgsim  CGSIM, then shifted off, so that "$@" is the scenarios;
#   $ideal  the --set options of an ideal machine: no overhead costs, no idle exit, no steal
#           (whose time a trace's switches include and a thread's CPU time does not, as on a
#           kernel);
#   $quick  with TESTS_QUICK=1 (the Makefile sets it under the sanitizers), the --set options
#           that make every run 1 s long without a warm-up: what the runners check holds for
#           any window, and the sanitizer pass is after memory errors, not more events
#           (tests/replay/run.sh judges shares and leaves it out);
#   $tmp    a scratch directory removed on exit.
if [ $# -lt 2 ]; then
    echo "usage: $0 CGSIM SCENARIO..." >&2
    exit 2
fi
cgsim=$1
shift
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
ideal="--set scheduler.costs.switch=0 --set scheduler.costs.wakeup=0
       --set scheduler.costs.sleep=0 --set scheduler.costs.tick=0
       --set scheduler.costs.level=0 --set scheduler.costs.walk=0
       --set machine.idle_exit=0 --set machine.steal=0"
quick=
[ "${TESTS_QUICK:-0}" = 1 ] && quick="--set duration=1s --set warmup=0"
