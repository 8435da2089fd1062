#!/usr/bin/env bash
# Heap allocations, retains and releases of ONE complete session through both state machines
# (the bench's reference session, ReferenceSession.typical), in a release build, with the
# sites they come from. Not part of `swift test`: it builds the session-probe target and runs
# it twice under valgrind's callgrind (about 10 s per run).
#
#   Scripts/allocations.sh [SESSIONS] [--json]      (default: 10 sessions)
#
# Method: callgrind counts every call to malloc, calloc, realloc, posix_memalign,
# aligned_alloc, memalign, swift_retain and swift_release (and their _n and bridge-object
# variants), with their callers (--separate-callers). The first run does 50 warm-up sessions
# and 1 measured one, the second the same and SESSIONS more; the difference of the two
# counts, divided by SESSIONS, is one session in steady state (warm-up work such as type
# metadata and lazy statics cancels out). Every session uses
# fresh randomness from the system, as `handoff-dev bench` does. Scripts/callgrind-calls.py does
# the arithmetic and names, per site, the innermost AccountHandoff function that made the call.
set -euo pipefail
cd "$(dirname "$0")/.."
sessions=10
format=()
for argument in "$@"; do
    case "$argument" in
        --json) format=(--json) ;;
        *[!0-9]* | "") echo "usage: Scripts/allocations.sh [SESSIONS] [--json]" >&2; exit 2 ;;
        *) sessions="$argument" ;;
    esac
done
[ "$sessions" -ge 1 ] || { echo "allocations: SESSIONS must be at least 1" >&2; exit 2; }

if ! command -v valgrind >/dev/null; then
    echo "Installing: valgrind" >&2
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq valgrind >&2
fi

swift build -c release --product session-probe >&2
probe="$(swift build -c release --show-bin-path)/session-probe"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
warmup=50
profile() {
    valgrind --tool=callgrind --separate-callers=12 --callgrind-out-file="$work/$1.out" \
        "$probe" "$warmup" "$2" >/dev/null 2>"$work/$1.log" || { cat "$work/$1.log" >&2; exit 1; }
}
profile base 1
profile more $((1 + sessions))
python3 Scripts/callgrind-calls.py "$work/base.out" "$work/more.out" "$sessions" "${format[@]}"
