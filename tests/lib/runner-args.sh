# tests/lib/runner-args.sh - sourced by the runners that take `CGSIM DIR`
# (tests/bad-scenarios/run.sh, tests/rtapp/run.sh), after `set -u`, with their arguments:
# checks them, and sets
#   $root   the repository root, where the runner then is (cd);
#   $cgsim  CGSIM made absolute when it is a path (a bare name is looked up in $PATH);
#   $dir    DIR relative to the root when it lies below it (the expected messages name it so);
#   $tmp    a scratch directory removed on exit.
if [ $# -ne 2 ]; then
    echo "usage: $0 CGSIM DIR" >&2
    exit 2
fi
here=$(pwd)
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
case $1 in
    /*) cgsim=$1 ;;
    */*) cgsim=$here/$1 ;;
    *) cgsim=$1 ;;
esac
case $2 in
    /*) dir=$2 ;;
    *) dir=$here/$2 ;;
esac
dir=$(cd "$dir" && pwd) || exit 2
case $dir in
    "$root"/*) dir=${dir#"$root"/} ;;
esac
cd "$root" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' 0
trap 'exit 2' HUP INT TERM
